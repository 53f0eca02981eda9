import { Fragment, useMemo, type ReactNode } from 'react';
import { Anchor, Code, Text, type MantineSize } from '@mantine/core';
import type { MentionNames } from '@flywheel/shared/mentions';
import { useCustomEmoji } from '../entities/workspace/index.ts';
import { parseSlackText, type SlackNode } from '../lib/slack-markup.ts';

/** A :code: the standard set does not have (it stays as typed in a text node): a workspace's custom emoji. */
const CUSTOM_CODE = /:([a-z0-9][a-z0-9_+'-]*):/g;

/** Text with the workspace's custom emoji as images (their code as the image's text); the rest as text. */
function withCustomEmoji(text: string, emoji: Readonly<Record<string, string>>, key: string): ReactNode {
  const out: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(CUSTOM_CODE)) {
    const url = emoji[m[1]!];
    if (!url || !/^https?:\/\//.test(url)) continue;
    out.push(text.slice(at, m.index));
    out.push(
      <img
        key={`${key}e${m.index}`}
        src={url}
        alt={m[0]}
        title={m[0]}
        loading="lazy"
        referrerPolicy="no-referrer"
        style={{ height: '1.3em', width: 'auto', verticalAlign: '-0.3em' }}
      />,
    );
    at = m.index + m[0].length;
  }
  if (out.length === 0) return text;
  out.push(text.slice(at));
  return out;
}

function render(
  nodes: readonly SlackNode[],
  key = '',
  emoji: Readonly<Record<string, string>> = {},
): ReactNode[] {
  return nodes.map((n, i) => {
    const k = `${key}${i}`;
    switch (n.kind) {
      case 'text':
        return <Fragment key={k}>{withCustomEmoji(n.text, emoji, k)}</Fragment>;
      case 'emoji':
        return (
          <span key={k} role="img" aria-label={n.name.replace(/_/g, ' ')} title={`:${n.name}:`}>
            {n.char}
          </span>
        );
      case 'link':
        return (
          <Anchor key={k} href={n.href} target="_blank" rel="noopener noreferrer" fz="inherit">
            {n.text}
          </Anchor>
        );
      case 'code':
        return (
          <Code key={k} block={n.block}>
            {n.text}
          </Code>
        );
      case 'bold':
        return <strong key={k}>{render(n.children, `${k}.`, emoji)}</strong>;
      case 'italic':
        return <em key={k}>{render(n.children, `${k}.`, emoji)}</em>;
      case 'strike':
        return <s key={k}>{render(n.children, `${k}.`, emoji)}</s>;
    }
  });
}

/**
 * Slack message text as people read it in Slack — links, emoji, @people, #channels, bold/italic/code — made
 * of React text and elements (never HTML: whatever the text holds is shown as text). THE renderer of message
 * content: every table, card and modal that shows what someone wrote in Slack uses it.
 */
export function SlackText({
  text,
  names,
  lineClamp,
  fz = 'sm',
  c,
}: {
  text: string;
  /** Names of member and channel ids still in the text as tokens (the server resolves most already). */
  names?: MentionNames;
  lineClamp?: number;
  fz?: MantineSize | number;
  c?: string;
}) {
  const nodes = useMemo(() => parseSlackText(text, names), [text, names]);
  // Codes left as typed after parsing may be the workspace's own emoji: only then are they asked for.
  const unknownCodes = useMemo(() => hasCode(nodes), [nodes]);
  const emoji = useCustomEmoji(unknownCodes);
  return (
    <Text
      fz={fz}
      c={c}
      lineClamp={lineClamp}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      data-slack-text=""
    >
      {render(nodes, '', emoji)}
    </Text>
  );
}

function hasCode(nodes: readonly SlackNode[]): boolean {
  return nodes.some((n) =>
    n.kind === 'text' ? /:[a-z0-9][a-z0-9_+'-]*:/.test(n.text) : 'children' in n && hasCode(n.children),
  );
}
