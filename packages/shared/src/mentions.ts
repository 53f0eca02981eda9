/*
 * Stored text carries mention tokens <@memberid>, <#channelid|name> and <#channelid>; people see
 * them as @real_name and #channel_name. This is the ONE function that does it, on the server and in the browser.
 */

export type MentionNames = {
  /** real_name of a member id, when known. */
  member(id: string): string | undefined;
  /** name of a channel id, when known. */
  channel(id: string): string | undefined;
};

const TOKEN = /<([@#!])([A-Za-z0-9_.-]+)(?:\|([^>]*))?>/g;
const SPECIAL: Record<string, string> = { here: '@here', channel: '@channel', everyone: '@everyone' };

/**
 * One token's readable text: `@` + member id -> `@real_name`, `#` + channel id -> `#name`, `!here` -> `@here`;
 * the token's own label (or id) when the name is unknown; null for a `!` token it does not know.
 */
export function readableToken(
  sigil: string,
  id: string,
  label: string | undefined,
  names?: MentionNames,
): string | null {
  if (sigil === '@') return `@${names?.member(id) || label || id}`;
  if (sigil === '#') return `#${names?.channel(id) || label || id}`;
  const special = SPECIAL[id];
  if (special) return special;
  if (!label) return null;
  return label.startsWith('@') ? label : `@${label}`;
}

/** `<@U1>` -> `@Ada Lovelace`, `<#C1|general>` / `<#C1>` -> `#general`, `<!here>` -> `@here`. */
export function readableMentions(text: string, names: MentionNames): string {
  return text.replace(
    TOKEN,
    (whole, sigil: string, id: string, label: string | undefined) =>
      readableToken(sigil, id, label, names) ?? whole,
  );
}

/** The member and channel ids a text mentions (to look their names up before `readableMentions`). */
export function mentionedIds(text: string): { members: string[]; channels: string[] } {
  const members = new Set<string>();
  const channels = new Set<string>();
  for (const m of text.matchAll(TOKEN)) {
    if (m[1] === '@') members.add(m[2]!);
    else if (m[1] === '#') channels.add(m[2]!);
  }
  return { members: [...members], channels: [...channels] };
}

/** Names from plain maps (what callers usually hold). */
export const namesFrom = (
  members: ReadonlyMap<string, string>,
  channels: ReadonlyMap<string, string>,
): MentionNames => ({ member: (id) => members.get(id), channel: (id) => channels.get(id) });
