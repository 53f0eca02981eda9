import { describe, expect, it } from 'vitest';
import { parseHtml, textOf } from './html-tree.ts';
import { buildMentionIndex, htmlToMrkdwn } from './mrkdwn.ts';

const index = buildMentionIndex({
  members: [
    { id: 'U01', display_name: 'ada', real_name: 'Ada Lovelace' },
    { id: 'U02', display_name: 'Grace H', real_name: 'Grace Hopper' },
    { id: 'U03', display_name: 'sam', real_name: 'Sam One' },
    { id: 'U04', display_name: 'sam', real_name: 'Sam Two' },
    { id: 'U05', display_name: 'Alan', real_name: 'ada' },
  ],
  channels: [
    { id: 'C01', name: 'general' },
    { id: 'C02', name: 'dev-team' },
  ],
});
const md = (html: string) => htmlToMrkdwn(html, index);

describe('htmlToMrkdwn: formatting', () => {
  it('bold, italic, strike and inline code', () => {
    expect(md('<p><strong>b</strong> <em>i</em> <s>s</s> <code>c</code> <u>u</u></p>')).toBe(
      '*b* _i_ ~s~ `c` u',
    );
  });

  it('keeps edge spaces outside the markers and wraps each line on its own', () => {
    expect(md('<p>a<strong> bold </strong>b</p>')).toBe('a *bold* b');
    expect(md('<p><em>one<br>two</em></p>')).toBe('_one_\n_two_');
    expect(md('<p><strong>   </strong>x</p>')).toBe('x');
  });

  it('nested marks, and a mark inside the same mark once', () => {
    expect(md('<p><strong><em>both</em></strong></p>')).toBe('*_both_*');
    expect(md('<p><strong>a <b>b</b></strong></p>')).toBe('*a b*');
  });

  it('code blocks in triple backticks, their text kept as typed but escaped', () => {
    expect(
      md('<pre><code class="language-js">if (a &lt; b &amp;&amp; c) {\n  go(@here)\n}\n</code></pre>'),
    ).toBe('```\nif (a &lt; b &amp;&amp; c) {\n  go(@here)\n}\n```');
    expect(md('<p><code>@here *x* #general</code></p>')).toBe('`@here *x* #general`');
  });

  it('links as <url|text>, a bare link as <url>, unsafe links as their text', () => {
    expect(md('<p><a target="_blank" rel="noopener" href="https://x.io/?a=1&amp;b=2">the site</a></p>')).toBe(
      '<https://x.io/?a=1&amp;b=2|the site>',
    );
    expect(md('<p><a href="https://x.io">https://x.io</a> <a href="mailto:a@x.io">a@x.io</a></p>')).toBe(
      '<https://x.io> <mailto:a@x.io>',
    );
    expect(md('<p><a href="https://x.io/a b|c">x &lt;y&gt;</a></p>')).toBe(
      '<https://x.io/a%20b%7Cc|x &lt;y&gt;>',
    );
    expect(md('<p><a href="javascript:alert(1)">click</a></p>')).toBe('click');
  });

  it('unordered lists with bullets, ordered lists numbered from their start, nested lists indented', () => {
    expect(md('<ul><li><p>a</p></li><li><p>b</p><ul><li><p>c</p></li></ul></li></ul>')).toBe(
      '• a\n• b\n    • c',
    );
    expect(md('<ol><li><p>x</p></li><li><p>y</p></li></ol><ol start="7"><li><p>z</p></li></ol>')).toBe(
      '1. x\n2. y\n\n7. z',
    );
    expect(md('<ul><li><p>one</p><p>more</p></li></ul>')).toBe('• one\n  more');
  });

  it('headings bold, quotes with >, rules dropped', () => {
    expect(md('<h2>Title</h2><blockquote><p>said</p><p>twice</p></blockquote><hr><p>end</p>')).toBe(
      '*Title*\n\n> said\n>\n> twice\n\nend',
    );
  });
});

describe('htmlToMrkdwn: lines and paragraphs', () => {
  it('paragraphs one blank line apart; empty paragraphs and runs of blank lines collapse', () => {
    expect(md('<p>one</p><p></p><p></p><p>two</p>')).toBe('one\n\ntwo');
    expect(md('<p>a<br>b<br><br><br><br>c</p>')).toBe('a\nb\n\nc');
    expect(md('<p></p><p>  </p>')).toBe('');
  });

  it('a lone * at a line start becomes a bullet; paired asterisks stay', () => {
    expect(md('<p>* first</p><p>  * second<br>* third</p><p>*bold* stays, a * b too</p>')).toBe(
      '• first\n\n  • second\n• third\n\n*bold* stays, a * b too',
    );
  });
});

describe('htmlToMrkdwn: mentions and escaping', () => {
  it('@here, @everyone and @channel become special mentions, in any case, whole words only', () => {
    expect(md('<p>@here @Everyone hi @channel! @herex mail@here.com</p>')).toBe(
      '<!here> <!everyone> hi <!channel>! @herex mail@here.com',
    );
  });

  it('a leading @ before # is removed', () => {
    expect(md('<p>@#general @#unknown</p>')).toBe('<#C01> #unknown');
  });

  it('#channel-name becomes <#C…> when known, unknown names and words with # stay', () => {
    expect(md('<p>#general, #Dev-Team- and #nope; C# issue#4</p>')).toBe(
      '<#C01>, <#C02>- and #nope; C# issue#4',
    );
  });

  it('@display name and @real name become <@U…>, the longest known name first', () => {
    expect(md('<p>hi @ada, @Grace H. and @Grace Hopper; @adam ada@x.io</p>')).toBe(
      'hi <@U01>, <@U02>. and <@U02>; @adam ada@x.io',
    );
  });

  it('a display name beats another member’s real name; a name two members share stays text', () => {
    expect(md('<p>@ada @sam @Sam One</p>')).toBe('<@U01> @sam <@U03>');
  });

  it('without a lookup, names stay as typed', () => {
    expect(htmlToMrkdwn('<p>@ada #general @here</p>')).toBe('@ada #general <!here>');
  });

  it('escapes &, < and > in text but not in the tokens it makes', () => {
    expect(md('<p>a &amp; b &lt;c&gt; &lt;@U01&gt; @here &amp;amp;</p>')).toBe(
      'a &amp; b &lt;c&gt; &lt;@U01&gt; <!here> &amp;amp;',
    );
  });

  it('non-breaking spaces are spaces', () => {
    expect(md('<p>a&nbsp;<strong>b&nbsp;</strong>c</p>')).toBe('a *b* c');
  });
});

describe('parseHtml', () => {
  it('reads attributes, entities, comments, void and unclosed elements', () => {
    const nodes = parseHtml('<!-- x --><p class="a" data-x=\'1\'>x &#x1F600; &#65;<br/>y<em>z</p>');
    expect(nodes).toHaveLength(1);
    const p = nodes[0]!;
    expect(p.kind === 'element' && p.attrs).toEqual({ class: 'a', 'data-x': '1' });
    expect(textOf(p)).toBe('x 😀 A\nyz');
    expect(parseHtml('a</b>c').map(textOf).join('')).toBe('ac');
  });
});
