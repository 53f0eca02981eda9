import type { WebClient } from '@slack/web-api';
import type { Db } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import { membershipRepo } from './membership-repo.ts';
import type { Pacing } from './pacing.ts';

/** Pages of 1,000 channels: an admin in more than 10,000 channels is not asked further. */
const MAX_PAGES = 10;

/**
 * Which channels an admin's Slack user is in, for a send as that admin: Slack refuses a user's post into a
 * channel they have not joined (`not_in_channel`), so such a send is refused before anything is queued.
 *
 * The answer is Slack's own, asked at the time with the admin's token (users.conversations: the channels the
 * token's user is in, public and private, 1,000 a page), because what Flywheel stores goes stale: its channel
 * members come from the history import and from member_joined_channel / member_left_channel events, which Slack
 * sends only for channels the bot is in. When Slack does not answer (rate limit, outage), the stored members
 * answer instead.
 */
export function adminMembership(deps: {
  db: Db;
  pacing: Pacing;
  /** Calls a minute per workspace (Slack's Tier 3 for users.conversations, scaled as every pace is). */
  perMinute: number;
  logger: Logger;
  /** A client with the admin's user token, or null when they have not authorized. */
  clientOf(teamId: string, adminUser: string): Promise<WebClient | null>;
}) {
  /** Slack's answer: which of `wanted` the token's user is in; null when Slack did not answer. */
  async function fromSlack(
    teamId: string,
    client: WebClient,
    wanted: Set<string>,
  ): Promise<Set<string> | null> {
    const found = new Set<string>();
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const at = await deps.pacing.reserve(teamId, [
          { key: 'users.conversations', perMinute: deps.perMinute },
        ]);
        if (at > Date.now()) await new Promise((r) => setTimeout(r, at - Date.now()));
        const res = await client.users.conversations({
          types: 'public_channel,private_channel',
          limit: 1000,
          ...(cursor ? { cursor } : {}),
        });
        for (const c of res.channels ?? []) if (c.id && wanted.has(c.id)) found.add(c.id);
        cursor = res.response_metadata?.next_cursor || undefined;
        if (!cursor || found.size === wanted.size) break;
      }
      return found;
    } catch (err) {
      deps.logger.warn({ err, teamId }, 'users.conversations failed: the stored channel members answer');
      return null;
    }
  }

  return {
    /** The channels among `channelIds` the admin's Slack user is not a member of (in the order given). */
    async notIn(teamId: string, adminUser: string, channelIds: string[]): Promise<string[]> {
      const wanted = new Set(channelIds);
      if (wanted.size === 0) return [];
      const client = await deps.clientOf(teamId, adminUser);
      const live = client ? await fromSlack(teamId, client, wanted) : null;
      const member = live ?? (await membershipRepo.storedChannels(deps.db, teamId, adminUser, [...wanted]));
      return [...wanted].filter((c) => !member.has(c));
    },
  };
}
export type AdminMembership = ReturnType<typeof adminMembership>;
