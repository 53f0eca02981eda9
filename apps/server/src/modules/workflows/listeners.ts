import type { Tx } from '../../db/sql.ts';
import type { WorkflowsCore } from './core.ts';

/** The join triggers, fired from workspace data's events (the listeners in module.ts). */
export const workflowListeners = ({ triggersRepo, now, ahead, wake }: WorkflowsCore) => ({
  /**
   * A member joined the workspace (its canonical join time from workspace data) or a channel: every active
   * workflow with that trigger fires for them, in the event's transaction. Returns how many first steps are
   * due now (wake a sender once committed) and the due times of those written with a delay (pass them to
   * `wake` once committed).
   */
  async onMemberJoined(
    tx: Tx,
    teamId: string,
    memberId: string,
    at: string,
    channelId?: string,
  ): Promise<{ due: number; later: Date[] }> {
    const type = channelId ? 'channel_join' : 'workspace_join';
    const ids = await triggersRepo.activeOfType(tx, teamId, type, channelId);
    if (!ids.length || !(await triggersRepo.isPerson(tx, teamId, memberId))) return { due: 0, later: [] };
    const key = channelId ? `channel:${memberId}:${channelId}:${at}` : `join:${memberId}:${at}`;
    const times = await triggersRepo.fire(
      tx,
      ids.map((workflowId) => ({ workflowId, key, memberId, at })),
    );
    const t = now();
    return { due: times.filter((d) => d.getTime() <= t).length, later: ahead(times) };
  },

  wake,
});
