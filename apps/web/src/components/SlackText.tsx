import { Fragment, useMemo, type ReactNode } from 'react';
import { Anchor, Code, Text, type MantineSize } from '@mantine/core';
import type { MentionNames } from '@flywheel/shared/mentions';
import { parseSlackText, type SlackNode } from '../lib/slack-markup.ts';

function render(nodes: readonly SlackNode[], key = ''): ReactNode[] {
  return nodes.map((n, i) => {
    const k = `${key}${i}`;
    switch (n.kind) {
      case 'text':
        return <Fragment key={k}>{n.text}</Fragment>;
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
        return <strong key={k}>{render(n.children, `${k}.`)}</strong>;
      case 'italic':
        return <em key={k}>{render(n.children, `${k}.`)}</em>;
      case 'strike':
        return <s key={k}>{render(n.children, `${k}.`)}</s>;
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
  return (
    <Text
      fz={fz}
      c={c}
      lineClamp={lineClamp}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      data-slack-text=""
    >
      {render(nodes)}
    </Text>
  );
}
