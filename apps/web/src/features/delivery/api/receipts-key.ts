import { workspaceKey } from '../../../entities/workspace/index.ts';

/** Every send adds a receipt: its mutation invalidates the workspace's receipts list by this key. */
export const receiptsKey = (teamId: string) => [...workspaceKey(teamId), 'receipts'] as const;
