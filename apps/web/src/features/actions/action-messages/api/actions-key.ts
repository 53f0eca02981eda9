import type { ActionRow } from '@flywheel/shared/actions';
import { workspaceKey } from '../../../../entities/workspace/index.ts';

export type ActionKind = ActionRow['kind'];

/** The Automate and Schedule tables of a workspace; create, edit and delete update them in place. */
export const actionsKey = (teamId: string, kind: ActionKind) =>
  [...workspaceKey(teamId), 'actions', kind] as const;
