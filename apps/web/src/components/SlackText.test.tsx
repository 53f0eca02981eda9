import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { namesFrom } from '@flywheel/shared/mentions';
import { parseSlackText, slackPlainText } from '../lib/slack-markup.ts';
import { renderUi } from '../testing/render.tsx';
import { SlackText } from './SlackText.tsx';
import { customEmojiResponse } from '@flywheel/shared/workspace';
import { CustomEmojiProvider } from '../entities/workspace/index.ts';
import { reply } from '../testing/fixture.ts';
import { mockApi } from '../testing/mock-api.ts';
import { seedSession } from '../testing/session-fixtures.ts';

const names = namesFrom(new Map([['U01', 'Ada Lovelace']]), new Map([['C01', 'general']]));

describe('parseSlackText (the shared reading of Slack message text)', () => {
  it('reads links with and without text; only http(s) and mailto become links', () => {
    expect(parseSlackText('See <https://example.com/a_b_c|the plan doc> or <https://x.test>')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', href: 'https://example.com/a_b_c', text: 'the plan doc' },
      { kind: 'text', text: ' or ' },
      { kind: 'link', href: 'https://x.test', text: 'https://x.test' },
    ]);
    expect(parseSlackText('<mailto:a@b.test|a@b.test> <javascript:alert(1)|click>')).toEqual([
      { kind: 'link', href: 'mailto:a@b.test', text: 'a@b.test' },
      { kind: 'text', text: ' click' },
    ]);
  });

  it('reads emoji codes (and skin tones); unknown codes stay as typed, times are not emoji', () => {
    expect(slackPlainText('Ship it :tada: :+1::skin-tone-3: :partyparrot: at 10:30:45')).toBe(
      'Ship it 🎉 👍🏼 :partyparrot: at 10:30:45',
    );
  });

  it('reads user, channel and special tokens with names, labels or ids', () => {
    expect(
      slackPlainText(
        '<@U01> <@U99|bob> <@U98> in <#C01|old> <#C77|random> <!here> <!subteam^S1|@design>',
        names,
      ),
    ).toBe('@Ada Lovelace @bob @U98 in #general #random @here @design');
    expect(slackPlainText('<!date^1700000000^{date}|Nov 14, 2023> <!unknown>')).toBe(
      'Nov 14, 2023 <!unknown>',
    );
  });

  it('reads bold, italic, strike and code; code is literal', () => {
    expect(parseSlackText('*big* _soft_ ~gone~ `a *b* :tada:`')).toEqual([
      { kind: 'bold', children: [{ kind: 'text', text: 'big' }] },
      { kind: 'text', text: ' ' },
      { kind: 'italic', children: [{ kind: 'text', text: 'soft' }] },
      { kind: 'text', text: ' ' },
      { kind: 'strike', children: [{ kind: 'text', text: 'gone' }] },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'a *b* :tada:', block: false },
    ]);
    // Not formatting: snake_case words, a lone star, 2*3*4.
    expect(slackPlainText('my_var_name 2*3*4 a * b')).toBe('my_var_name 2*3*4 a * b');
  });

  it('keeps HTML and unknown angle brackets as text, entities decoded', () => {
    expect(slackPlainText('a &lt;b&gt;bold&lt;/b&gt; &amp; <script>alert(1)</script> 1 < 2')).toBe(
      'a <b>bold</b> & <script>alert(1)</script> 1 < 2',
    );
  });
});

describe('SlackText', () => {
  it('renders links, emoji and mentions as elements and HTML as text', () => {
    const { container } = renderUi(
      <SlackText
        text={
          'Hi <@U01> :tada: see <https://example.com|the doc> &lt;img src=x onerror=alert(1)&gt; <b>x</b>'
        }
        names={names}
      />,
    );
    const link = screen.getByRole('link', { name: 'the doc' });
    expect(link).toHaveAttribute('href', 'https://example.com');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('img', { name: 'tada' })).toHaveTextContent('🎉');
    const text = container.querySelector('[data-slack-text]')!;
    expect(text).toHaveTextContent('Hi @Ada Lovelace 🎉 see the doc <img src=x onerror=alert(1)> <b>x</b>');
    expect(text.querySelector('img, b, script')).toBeNull();
  });

  it("shows the workspace's custom emoji as images (asked for only when the text has an unknown code); others stay as typed", async () => {
    seedSession();
    const api = mockApi({
      'GET /workspace/emoji/T001': reply(customEmojiResponse, {
        data: { partyparrot: 'https://emoji.example/partyparrot.gif', bad: 'javascript:alert(1)' },
      }),
    });
    renderUi(
      <CustomEmojiProvider>
        <SlackText text="Ship it :partyparrot: :nope: :bad: :tada:" />
        <SlackText text="plain words only" />
      </CustomEmojiProvider>,
    );
    const img = await screen.findByRole('img', { name: ':partyparrot:' });
    expect(img).toHaveAttribute('src', 'https://emoji.example/partyparrot.gif');
    expect(screen.getByText(/:nope: :bad:/)).toBeInTheDocument();
    expect(api.callsTo('GET', '/workspace/emoji/T001')).toHaveLength(1);
  });

  it('asks for no custom emoji when no text has an unknown code', async () => {
    seedSession();
    const api = mockApi({});
    renderUi(
      <CustomEmojiProvider>
        <SlackText text="Ship it :tada: now" />
      </CustomEmojiProvider>,
    );
    expect(await screen.findByText(/Ship it/)).toBeInTheDocument();
    expect(api.callsTo('GET', '/workspace/emoji/T001')).toHaveLength(0);
  });
});
