/*
 * A small, forgiving HTML reader for the markup the message editor (Tiptap) writes: elements, attributes,
 * text with entities decoded, comments skipped. No DOM, so it runs in the browser and in Node alike.
 */

export type HtmlText = { kind: 'text'; text: string };
export type HtmlElement = {
  kind: 'element';
  tag: string;
  attrs: Readonly<Record<string, string>>;
  children: HtmlNode[];
};
export type HtmlNode = HtmlText | HtmlElement;

const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'wbr', 'col', 'area', 'source']);
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi;
const TAG =
  /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
const ATTR = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

function readAttrs(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(ATTR)) {
    attrs[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/** The nodes of `html`. Unclosed elements close at the end; a stray closing tag is ignored. */
export function parseHtml(html: string): HtmlNode[] {
  const root: HtmlElement = { kind: 'element', tag: '#root', attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  const top = () => stack[stack.length - 1]!;
  const addText = (raw: string) => {
    if (raw) top().children.push({ kind: 'text', text: decodeEntities(raw) });
  };
  let at = 0;
  for (const m of html.matchAll(TAG)) {
    addText(html.slice(at, m.index));
    at = m.index + m[0].length;
    const tag = m[2]?.toLowerCase();
    if (!tag) continue; // a comment
    if (m[1]) {
      const open = stack.findLastIndex((e) => e.tag === tag);
      if (open > 0) stack.length = open;
      continue;
    }
    const el: HtmlElement = { kind: 'element', tag, attrs: readAttrs(m[3] ?? ''), children: [] };
    top().children.push(el);
    if (!VOID.has(tag) && !m[4]) stack.push(el);
  }
  addText(html.slice(at));
  return root.children;
}

/** The text of a node, as it reads (line breaks for <br>). */
export function textOf(node: HtmlNode): string {
  if (node.kind === 'text') return node.text;
  if (node.tag === 'br') return '\n';
  return node.children.map(textOf).join('');
}
