import { workspaceKey } from '../../../entities/workspace/index.ts';

/** Every Home query key starts here. */
export const homeKey = (teamId: string) => [...workspaceKey(teamId), 'home'] as const;
