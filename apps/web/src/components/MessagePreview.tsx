import { Fragment, type ReactNode } from 'react';
import { Anchor, Box, Code } from '@mantine/core';
import { parseHtml, type HtmlNode } from '@flywheel/shared/html-tree';
import type { MentionNames } from '@flywheel/shared/mentions';
import { SlackText } from './SlackText.tsx';

/** Elements the editor writes that the preview keeps; anything else shows its text only. */
const INLINE: Record<string, 'strong' | 'em' | 's'> = {
  strong: 'strong',
  b: 'strong',
  em: 'em',
  i: 'em',
  s: 's',
};
const BLOCK: Record<string, 'p' | 'ul' | 'ol' | 'li'> = { p: 'p', ul: 'ul', ol: 'ol', li: 'li' };
const SAFE_HREF = /^(https?:|mailto:)/i;

function render(nodes: readonly HtmlNode[], key = ''): ReactNode[] {
  return nodes.map((n, i) => {
    const k = `${key}${i}`;
    if (n.kind === 'text') return <Fragment key={k}>{n.text}</Fragment>;
    const children = render(n.children, `${k}.`);
    if (n.tag === 'br') return <br key={k} />;
    if (n.tag === 'code') return <Code key={k}>{children}</Code>;
    if (n.tag === 'a' && SAFE_HREF.test(n.attrs.href ?? ''))
      return (
        <Anchor key={k} href={n.attrs.href} target="_blank" rel="noopener noreferrer" fz="inherit">
          {children}
        </Anchor>
      );
    const inline = INLINE[n.tag];
    if (inline) {
      const Tag = inline;
      return <Tag key={k}>{children}</Tag>;
    }
    const block = BLOCK[n.tag];
    if (block)
      return (
        <Box key={k} component={block} m={0} pl={block === 'ul' || block === 'ol' ? 'md' : undefined}>
          {children}
        </Box>
      );
    return <Fragment key={k}>{children}</Fragment>;
  });
}

/**
 * A stored message as people read it: the editor's HTML read into React elements (bold, italic, code, lists,
 * http(s) links and line breaks kept; every other tag and attribute dropped, text escaped by React), or the
 * chat text when there is no HTML, read by the shared SlackText (links, emoji, @names and #channels). Never
 * raw HTML.
 */
export function MessagePreview({
  html,
  text,
  names,
  lines = 3,
}: {
  html: string;
  text: string;
  names?: MentionNames;
  lines?: number;
}) {
  const nodes = html.trim() ? parseHtml(html) : null;
  if (!nodes)
    return (
      <Box maw={320}>
        <SlackText text={text} names={names} lineClamp={lines} />
      </Box>
    );
  return (
    <Box
      fz="sm"
      style={{
        WebkitLineClamp: lines,
        display: '-webkit-box',
        WebkitBoxOrient: 'vertical',
        overflow: 'hidden',
      }}
      maw={320}
    >
      {render(nodes)}
    </Box>
  );
}
