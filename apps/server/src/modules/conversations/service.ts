import { parseMentionId } from '@flywheel/shared/conversations';
import type { Sender } from '@flywheel/shared/delivery';
import type { Tx } from '../../db/sql.ts';
import { conversationsCore, type ConversationsDeps } from './core.ts';
import { conversationsHistory } from './history.ts';
import { questionReads } from './question-reads.ts';

export type { ConversationsDeps, ThreadsWindow } from './core.ts';
export {
  decodeCursor,
  decodeThreadCursor,
  encodeCursor,
  encodeThreadCursor,
  searchQueryOf,
  slackWebOrigin,
} from './core.ts';

/** The conversation workbench: threads, their replies and reactions, search, mentions, summaries. */
export const conversationsService = (deps: ConversationsDeps) => {
  const core = conversationsCore(deps);
  const { repo } = core;
  return {
    ...conversationsHistory(core),

    /** A reply to a mention, sent through the delivery engine; the mention is then 'Seen'. */
    async replyToMention(r: {
      teamId: string;
      userId: string | null;
      sender: Sender;
      adminUser: string | null;
      text: string;
      images: string[];
      channelId: string;
      ts: string;
      mentionId?: string | null;
      /** A person's Idempotency-Key (its receipt key). */
      idempotencyKey?: string;
    }) {
      const result = await deps.delivery.reply({
        teamId: r.teamId,
        userId: r.userId,
        sender: r.sender,
        adminUser: r.adminUser,
        text: r.text,
        images: r.images,
        channel: r.channelId,
        ts: r.ts,
        ...(r.idempotencyKey ? { idempotencyKey: r.idempotencyKey } : {}),
      });
      const seen = (r.mentionId && parseMentionId(r.mentionId)) || { channelId: r.channelId, ts: r.ts };
      await repo.markSeen(r.teamId, seen.channelId, seen.ts, 'reply', r.userId);
      return result;
    },

    /** A reaction to a mention (delivery's paced call); the mention is then 'Seen'. */
    async reactToMention(r: {
      teamId: string;
      userId: string | null;
      sender: Sender;
      adminUser: string | null;
      channelId: string;
      ts: string;
      name: string;
      mentionId?: string | null;
    }): Promise<string> {
      const message = await deps.delivery.react(r.teamId, {
        channel: r.channelId,
        ts: r.ts,
        name: r.name,
        sender: r.sender,
        adminUser: r.adminUser,
      });
      const seen = (r.mentionId && parseMentionId(r.mentionId)) || { channelId: r.channelId, ts: r.ts };
      await repo.markSeen(r.teamId, seen.channelId, seen.ts, 'reaction', r.userId);
      return message;
    },

    ...questionReads(core),

    /** pin_added / pin_removed (event listener, in the drain's transaction). */
    applyPin: (
      tx: Tx,
      p: { teamId: string; channelId: string; ts: string; pinned: boolean; by: string | null; at: Date },
    ) => repo.setPinned(tx, p),
  };
};
export type ConversationsService = ReturnType<typeof conversationsService>;
