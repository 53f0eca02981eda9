import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import type { TokenSource } from '../../slack/client.ts';
import { slackErrorOf } from '../../slack/client.ts';

/** Answers that mean there is nothing to join (any more): the job ends quietly instead of retrying. */
const NOTHING_TO_JOIN = new Set([
  'is_archived',
  'channel_not_found',
  'method_not_supported_for_channel_type',
]);

/**
 * The bot joins a public channel (created or unarchived after the install), so that Slack sends its
 * messages. Idempotent: a channel the bot is already in answers `already_in_channel`, which is success.
 * Returns what happened, for the log and the tests.
 */
export async function joinChannel(
  ctx: AppContext,
  teamId: string,
  channelId: string,
): Promise<'joined' | 'already_in' | 'gone' | 'disconnected'> {
  let token: TokenSource;
  try {
    token = await ctx.services.workspaces.botToken(teamId);
  } catch (err) {
    if (err instanceof AppError && err.code === 'WORKSPACE_DISCONNECTED') return 'disconnected';
    throw err;
  }
  await ctx.slack.pace(teamId, 'conversations.join');
  try {
    const res = await ctx.slack.client(token).conversations.join({ channel: channelId });
    return res.warning === 'already_in_channel' ? 'already_in' : 'joined';
  } catch (err) {
    const code = slackErrorOf(err);
    if (code && NOTHING_TO_JOIN.has(code)) return 'gone';
    throw err;
  }
}
