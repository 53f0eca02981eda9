import type { AppContext } from '../../context.ts';

/** How long a workspace's custom emoji are kept before emoji.list is asked again (emoji_changed clears them). */
export const EMOJI_TTL_MS = 10 * 60_000;

type Entry = { at: number; emoji: Promise<Record<string, string>> };

/**
 * A workspace's custom emoji (Slack's emoji.list), name -> image URL, aliases resolved to their image (an alias of a
 * standard emoji is left out: the browser draws those). Kept per process for EMOJI_TTL_MS, dropped at once when
 * Slack says they changed. A workspace that cannot answer (an install before emoji:read, Slack down) has none: the
 * codes then read as typed, never an error.
 */
export function customEmojiCache(ctx: AppContext, now: () => number = Date.now) {
  const entries = new Map<string, Entry>();

  async function fetchEmoji(teamId: string): Promise<Record<string, string>> {
    try {
      const token = await ctx.services.workspaces.botToken(teamId);
      await ctx.slack.pace(teamId, 'emoji.list');
      const res = (await ctx.slack.client(token).emoji.list({})) as { emoji?: Record<string, string> };
      return resolveAliases(res.emoji ?? {});
    } catch (err) {
      ctx.logger.warn({ err, teamId }, 'could not read the custom emoji (emoji.list)');
      return {};
    }
  }

  return {
    get(teamId: string): Promise<Record<string, string>> {
      const hit = entries.get(teamId);
      if (hit && now() - hit.at < EMOJI_TTL_MS) return hit.emoji;
      const emoji = fetchEmoji(teamId);
      entries.set(teamId, { at: now(), emoji });
      return emoji;
    },
    forget(teamId: string): void {
      entries.delete(teamId);
    },
  };
}
export type CustomEmojiCache = ReturnType<typeof customEmojiCache>;

/** Slack lists an alias as 'alias:<name>': it takes its target's image when the target is custom. */
export function resolveAliases(listed: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(listed)) {
    let target = value;
    for (let hops = 0; target.startsWith('alias:') && hops < 5; hops++)
      target = listed[target.slice(6)] ?? '';
    if (/^https?:\/\//.test(target)) out[name] = target;
  }
  return out;
}
