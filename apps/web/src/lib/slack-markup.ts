import { decodeEntities } from '@flywheel/shared/html-tree';
import { readableToken, type MentionNames } from '@flywheel/shared/mentions';
import { emojiChar } from './slack-emoji.ts';

/*
 * Slack message text ("mrkdwn" as Slack stores it) read into a small tree the one renderer
 * (components/SlackText.tsx) turns into React text and elements — never HTML:
 * - <https://…|text>, <https://…>, <mailto:…|text> are links (only http(s) and mailto; other schemes show
 *   their text);
 * - <@U…>, <#C…|name>, <!here>, <!subteam^S…|@team>, <!date^…|fallback> read as the text @name, #channel,
 *   @here…;
 * - :emoji: codes (and :skin-tone-N:) become their characters; unknown (custom) codes stay as typed;
 * - *bold*, _italic_, ~strike~, `code` and ```code blocks```;
 * - &amp; &lt; &gt; are decoded, and anything else in angle brackets (<b>, <script>) stays as the text it is.
 */

export type SlackNode =
  | { kind: 'text'; text: string }
  | { kind: 'link'; href: string; text: string }
  | { kind: 'emoji'; name: string; char: string }
  | { kind: 'code'; text: string; block: boolean }
  | { kind: 'bold' | 'italic' | 'strike'; children: SlackNode[] };

const CODE = /```([\s\S]*?)```|`([^`\n]+)`/g;
const ANGLE = /<([^<>\n]+)>/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;
const MENTION = /^([@#!])([^|]+?)(?:\|(.*))?$/s;
// Placeholders for the angle tokens while the formatting is read (private-use characters, stripped from input).
const OPEN = '\uE000';
const CLOSE = '\uE001';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;
const MARKS: Record<string, 'bold' | 'italic' | 'strike'> = { '*': 'bold', _: 'italic', '~': 'strike' };
// A span of *bold*, _italic_ or ~strike~: the mark after a non-word character (or the start), no space inside
// its edges, and the same mark before a non-word character (or the end). Slack reads them the same way.
const FORMAT = /(^|[^\p{L}\p{N}*_~])([*_~])(?![\s*_~])([^\n]*?[^\s])\2(?![\p{L}\p{N}])/u;
const EMOJI = /:([a-z0-9_+'-]+):(?::skin-tone-([2-6]):)?/gi;
const SKIN = ['', '', '\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}'];

/** One `<…>` token as a node, or null when it is not Slack markup (then it stays text). */
function angle(body: string, names: MentionNames | undefined): SlackNode | null {
  const m = MENTION.exec(body);
  if (m) {
    const [, sigil, rawId, label] = m as unknown as [string, string, string, string | undefined];
    if (sigil === '!') {
      // <!subteam^S1|@team>, <!date^1700000000^{date}|Nov 14>: the label is the readable part.
      const [id] = rawId.split('^');
      const text = readableToken('!', id!, label === undefined ? undefined : decodeEntities(label), names);
      if (text === null) return null;
      return rawId.startsWith('date^')
        ? { kind: 'text', text: decodeEntities(label ?? '') }
        : mentionNode(text);
    }
    if (!/^[A-Z0-9][A-Z0-9_.-]*$/i.test(rawId)) return null;
    return mentionNode(
      readableToken(sigil, rawId, label === undefined ? undefined : decodeEntities(label), names)!,
    );
  }
  if (!SCHEME.test(body)) return null;
  const bar = body.indexOf('|');
  const url = decodeEntities(bar < 0 ? body : body.slice(0, bar));
  const label = bar < 0 ? url.replace(/^mailto:/i, '') : decodeEntities(body.slice(bar + 1));
  return SAFE_HREF.test(url)
    ? { kind: 'link', href: url, text: label || url }
    : { kind: 'text', text: label };
}

// A mention reads as text ('@Ada Lovelace'), joined to the text around it.
const mentionNode = (text: string): SlackNode => ({ kind: 'text', text });

/** Plain text with placeholders: emoji codes to characters, entities decoded, placeholders to their nodes. */
function leaves(s: string, tokens: readonly SlackNode[], out: SlackNode[]) {
  let at = 0;
  const pushText = (raw: string) => {
    if (!raw) return;
    let i = 0;
    for (const m of raw.matchAll(EMOJI)) {
      const char = emojiChar(m[1]!.toLowerCase());
      if (!char) continue;
      pushPlain(raw.slice(i, m.index), out);
      out.push({ kind: 'emoji', name: m[1]!.toLowerCase(), char: char + (m[2] ? SKIN[Number(m[2])] : '') });
      i = m.index + m[0].length;
    }
    pushPlain(raw.slice(i), out);
  };
  for (const m of s.matchAll(PLACEHOLDER)) {
    pushText(s.slice(at, m.index));
    const token = tokens[Number(m[1])]!;
    if (token.kind === 'text') pushPlain(token.text, out, false);
    else out.push(token);
    at = m.index + m[0].length;
  }
  pushText(s.slice(at));
}

function pushPlain(raw: string, out: SlackNode[], decode = true) {
  if (!raw) return;
  const text = decode ? decodeEntities(raw) : raw;
  const last = out[out.length - 1];
  if (last?.kind === 'text') last.text += text;
  else out.push({ kind: 'text', text });
}

/** *bold*, _italic_ and ~strike~ spans (nested as written), the rest as leaves. */
function formatted(s: string, tokens: readonly SlackNode[], out: SlackNode[]) {
  let rest = s;
  for (let m = FORMAT.exec(rest); m; m = FORMAT.exec(rest)) {
    const start = m.index + m[1]!.length;
    leaves(rest.slice(0, start), tokens, out);
    const children: SlackNode[] = [];
    formatted(m[3]!, tokens, children);
    out.push({ kind: MARKS[m[2]!]!, children });
    rest = rest.slice(m.index + m[0].length);
  }
  leaves(rest, tokens, out);
}

function inline(text: string, names: MentionNames | undefined, out: SlackNode[]) {
  const tokens: SlackNode[] = [];
  const masked = text.replace(ANGLE, (whole, body: string) => {
    const node = angle(body, names);
    if (!node) return whole;
    tokens.push(node);
    return `${OPEN}${tokens.length - 1}${CLOSE}`;
  });
  formatted(masked, tokens, out);
}

/** Slack message text as nodes (see the top of this file). `names` reads member and channel ids. */
export function parseSlackText(text: string, names?: MentionNames): SlackNode[] {
  const source = text.replace(/[\uE000\uE001]/g, '');
  const out: SlackNode[] = [];
  let at = 0;
  for (const m of source.matchAll(CODE)) {
    inline(source.slice(at, m.index), names, out);
    const block = m[1] !== undefined;
    out.push({ kind: 'code', text: decodeEntities(block ? m[1]!.replace(/^\n|\n$/g, '') : m[2]!), block });
    at = m.index + m[0].length;
  }
  inline(source.slice(at), names, out);
  return out;
}

/** The text a person reads (links as their text, emoji as characters): for titles, tooltips and CSV. */
export function slackPlainText(text: string, names?: MentionNames): string {
  const flat = (nodes: readonly SlackNode[]): string =>
    nodes.map((n) => (n.kind === 'emoji' ? n.char : 'children' in n ? flat(n.children) : n.text)).join('');
  return flat(parseSlackText(text, names));
}
