import { workspaceKey } from '../../../entities/workspace/index.ts';

/** Every workflows query key starts here (the list, one workflow, its histories). */
export const workflowsKey = (teamId: string) => [...workspaceKey(teamId), 'workflows'] as const;
