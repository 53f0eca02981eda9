import { parseHtml, textOf, type HtmlElement, type HtmlNode } from './html-tree.ts';

/*
 * The message editor's HTML to Slack mrkdwn: *bold*, _italic_, ~strike~, `code`,
 * ```code blocks```, <url|text>, lists as "1." and "•", paragraphs one blank line apart (runs of blank lines
 * collapse), @here/@everyone/@channel as <!here>…, "@#" loses its "@", a lone "*" at a line start becomes a
 * bullet, "@display name" and "#channel-name" become <@U…> and <#C…> when known, and & < > escaped as Slack
 * requires everywhere except in the tokens made here. Runs in the browser and in Node (no DOM).
 */

export type MentionLookup = {
  members?: readonly { id: string; display_name?: string | null; real_name?: string | null }[];
  channels?: readonly { id: string; name: string }[];
};

/** Names to ids, lower-cased; a name two members share is left as text (null). */
export type MentionIndex = {
  members: ReadonlyMap<string, string | null>;
  channels: ReadonlyMap<string, string>;
  longestMember: number;
};

const EMPTY_INDEX: MentionIndex = { members: new Map(), channels: new Map(), longestMember: 0 };
const NAME_CHAR = /[\p{L}\p{N}_.+-]/u;
const WORD_CHAR = /[\p{L}\p{N}_-]/u;
const SPECIAL = /^@(here|everyone|channel)(?![\p{L}\p{N}_-])/iu;
const CHANNEL = /^#([\p{L}\p{N}_-]+)/u;
const BULLET = /^([ \t]*)\*(?=[ \t])/;
const SAFE_URL = /^(https?:\/\/|mailto:)/i;
const BLOCK = new Set([
  'p',
  'div',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'pre',
  'blockquote',
  'hr',
]);
const MARK: Record<string, string> = { strong: '*', b: '*', em: '_', i: '_', s: '~', strike: '~', del: '~' };

export function buildMentionIndex(lookup: MentionLookup): MentionIndex {
  const put = (map: Map<string, string | null>, name: string | null | undefined, id: string) => {
    const key = name?.trim().toLowerCase();
    if (!key) return;
    const had = map.get(key);
    map.set(key, had === undefined || had === id ? id : null);
  };
  const members = new Map<string, string | null>();
  const display = new Map<string, string | null>();
  for (const m of lookup.members ?? []) {
    put(members, m.real_name, m.id);
    put(display, m.display_name, m.id);
  }
  // A display name wins over someone else's real name.
  for (const [name, id] of display) members.set(name, id);
  let longestMember = 0;
  for (const name of members.keys()) longestMember = Math.max(longestMember, name.length);
  const channels = new Map<string, string>();
  for (const c of lookup.channels ?? []) channels.set(c.name.replace(/^#/, '').toLowerCase(), c.id);
  return { members, channels, longestMember };
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeUrl = (s: string) => s.replace(/&/g, '&amp;').replace(/[|<>\s]/g, (c) => encodeURIComponent(c));

/** Wraps each line's non-blank core in the marker (Slack formatting does not span lines or edge spaces). */
function wrap(marker: string, inner: string): string {
  return inner
    .split('\n')
    .map((line) => {
      const m = /^(\s*)(.*?)(\s*)$/s.exec(line)!;
      return m[2] ? `${m[1]}${marker}${m[2]}${marker}${m[3]}` : line;
    })
    .join('\n');
}

class Writer {
  private lineStart = true;
  /** Whether the text before the current one ends in a name character (then "@x" is part of a word). */
  private afterNameChar = false;
  private readonly open = new Set<string>();

  constructor(private readonly index: MentionIndex) {}

  blocks(nodes: readonly HtmlNode[]): string[] {
    const out: string[] = [];
    let inline: HtmlNode[] = [];
    const flush = () => {
      if (inline.length) out.push(this.paragraph(inline));
      inline = [];
    };
    for (const n of nodes) {
      if (n.kind === 'element' && BLOCK.has(n.tag)) {
        flush();
        out.push(this.block(n));
      } else if (n.kind === 'element' || n.text.trim() !== '' || inline.length) inline.push(n);
    }
    flush();
    return out.filter((b) => b.trim() !== '');
  }

  private paragraph(nodes: readonly HtmlNode[]): string {
    this.lineStart = true;
    this.afterNameChar = false;
    return this.inline(nodes)
      .replace(/\n{3,}/g, '\n\n')
      .replace(/[ \t]+$/gm, '');
  }

  private block(el: HtmlElement): string {
    switch (el.tag) {
      case 'ul':
      case 'ol':
        return this.list(el, 0);
      case 'pre':
        return '```\n' + escapeText(textOf(el).replace(/\n$/, '')) + '\n```';
      case 'blockquote':
        return this.blocks(el.children)
          .join('\n\n')
          .split('\n')
          .map((l) => (l ? `> ${l}` : '>'))
          .join('\n');
      case 'hr':
        return '';
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return this.paragraph([{ kind: 'element', tag: 'strong', attrs: {}, children: el.children }]);
      default:
        return this.blocks(el.children).join('\n\n');
    }
  }

  private list(el: HtmlElement, depth: number): string {
    const indent = '    '.repeat(depth);
    const start = Number.parseInt(el.attrs.start ?? '1', 10);
    let n = Number.isFinite(start) ? start : 1;
    const items: string[] = [];
    for (const item of el.children) {
      if (item.kind !== 'element') continue;
      const prefix = el.tag === 'ol' ? `${n++}.` : '•';
      const cont = indent + ' '.repeat(prefix.length + 1);
      const lines: string[] = [];
      for (const part of this.itemParts(item, depth)) {
        if (part.nested) lines.push(part.text);
        else {
          const first = lines.length === 0 ? `${indent}${prefix} ` : cont;
          lines.push(
            part.text
              .split('\n')
              .map((l, i) => (i === 0 ? first : cont) + l)
              .join('\n'),
          );
        }
      }
      items.push(lines.length ? lines.join('\n') : `${indent}${prefix}`);
    }
    return items.join('\n');
  }

  /** An item's paragraphs (inline runs and blocks) and nested lists (already indented). */
  private itemParts(li: HtmlElement, depth: number): { text: string; nested: boolean }[] {
    const parts: { text: string; nested: boolean }[] = [];
    let inline: HtmlNode[] = [];
    const flush = () => {
      if (inline.some((n) => n.kind === 'element' || n.text.trim())) {
        parts.push({ text: this.paragraph(inline), nested: false });
      }
      inline = [];
    };
    for (const n of li.tag === 'li' ? li.children : [li]) {
      if (n.kind === 'element' && (n.tag === 'ul' || n.tag === 'ol')) {
        flush();
        parts.push({ text: this.list(n, depth + 1), nested: true });
      } else if (n.kind === 'element' && BLOCK.has(n.tag)) {
        flush();
        const text = this.block(n);
        if (text.trim()) parts.push({ text, nested: false });
      } else inline.push(n);
    }
    flush();
    return parts;
  }

  private inline(nodes: readonly HtmlNode[]): string {
    return nodes.map((n) => (n.kind === 'text' ? this.text(n.text) : this.element(n))).join('');
  }

  private element(el: HtmlElement): string {
    const marker = MARK[el.tag];
    if (marker) {
      if (this.open.has(marker)) return this.inline(el.children);
      this.open.add(marker);
      const inner = this.inline(el.children);
      this.open.delete(marker);
      return wrap(marker, inner);
    }
    if (el.tag === 'br') {
      this.lineStart = true;
      this.afterNameChar = false;
      return '\n';
    }
    if (el.tag === 'code') return this.code(textOf(el));
    if (el.tag === 'a') return this.link(el);
    if (el.tag === 'img') return '';
    return this.inline(el.children);
  }

  private code(raw: string): string {
    const text = raw.replace(/\u00a0/g, ' ');
    if (!text) return '';
    this.lineStart = false;
    return wrap('`', escapeText(text));
  }

  private link(el: HtmlElement): string {
    const href = (el.attrs.href ?? '').trim();
    if (!SAFE_URL.test(href)) return this.inline(el.children);
    const label = textOf(el)
      .replace(/\u00a0/g, ' ')
      .trim();
    this.lineStart = false;
    const url = escapeUrl(href);
    if (!label || label === href || `mailto:${label}` === href) return `<${url}>`;
    return `<${url}|${escapeText(label.replace(/\n/g, ' '))}>`;
  }

  /** Plain text: bullets, special mentions, member and channel names, escaping. */
  private text(raw: string): string {
    const s = raw.replace(/\u00a0/g, ' ');
    let out = '';
    let i = 0;
    while (i < s.length) {
      const rest = s.slice(i);
      const c = s[i]!;
      if (c === '\n') {
        out += c;
        i++;
        this.lineStart = true;
        continue;
      }
      if (this.lineStart) {
        const bullet = BULLET.exec(rest);
        if (bullet) {
          out += `${bullet[1]}•`;
          i += bullet[0].length;
          this.lineStart = false;
          continue;
        }
        if (c !== ' ' && c !== '\t') this.lineStart = false;
      }
      const free = i === 0 ? !this.afterNameChar : !NAME_CHAR.test(s[i - 1]!);
      if (c === '@' && free) {
        if (s[i + 1] === '#') {
          i++;
          continue;
        }
        const special = SPECIAL.exec(rest);
        if (special) {
          out += `<!${special[1]!.toLowerCase()}>`;
          i += special[0].length;
          continue;
        }
        const member = this.member(s, i + 1);
        if (member) {
          out += `<@${member.id}>`;
          i = member.end;
          continue;
        }
      }
      if (c === '#' && free) {
        const channel = this.channel(rest);
        if (channel) {
          out += `<#${channel.id}>`;
          i += channel.length;
          continue;
        }
      }
      out += escapeText(c);
      i++;
    }
    if (s) this.afterNameChar = NAME_CHAR.test(s[s.length - 1]!);
    return out;
  }

  /** The longest known member name starting at `from` and ending at a word boundary. */
  private member(s: string, from: number): { id: string; end: number } | null {
    const max = Math.min(s.length, from + this.index.longestMember);
    for (let end = max; end > from; end--) {
      if (end < s.length && WORD_CHAR.test(s[end]!)) continue;
      const id = this.index.members.get(s.slice(from, end).toLowerCase());
      if (id) return { id, end };
    }
    return null;
  }

  private channel(rest: string): { id: string; length: number } | null {
    const m = CHANNEL.exec(rest);
    if (!m) return null;
    const names = [m[1]!, m[1]!.replace(/[-_]+$/, '')];
    for (const name of names) {
      const id = this.index.channels.get(name.toLowerCase());
      if (id) return { id, length: name.length + 1 };
    }
    return null;
  }
}

/** Slack mrkdwn for the editor's HTML; `index` (from buildMentionIndex) turns known names into tokens. */
export function htmlToMrkdwn(html: string, index: MentionIndex = EMPTY_INDEX): string {
  return new Writer(index).blocks(parseHtml(html)).join('\n\n').trim();
}
