import { workspaceKey } from '../../../entities/workspace/index.ts';

/** Every member-detail query key starts here: invalidating it reloads the member's page. */
export const memberKey = (teamId: string, memberId: string) =>
  [...workspaceKey(teamId), 'member', memberId] as const;
