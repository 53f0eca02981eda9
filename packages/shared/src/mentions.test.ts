import { describe, expect, it } from 'vitest';
import { mentionedIds, namesFrom, readableMentions } from './mentions.ts';

const names = namesFrom(
  new Map([
    ['U01', 'Ada Lovelace'],
    ['U02', 'Alan Turing'],
  ]),
  new Map([['C01', 'general']]),
);

describe('readableMentions', () => {
  it('turns member and channel tokens into @real_name and #channel_name', () => {
    expect(readableMentions('hi <@U01> and <@U02>, see <#C01|old-name> or <#C01>', names)).toBe(
      'hi @Ada Lovelace and @Alan Turing, see #general or #general',
    );
  });

  it('falls back to the token label, then the id, for unknown ids', () => {
    expect(readableMentions('<#C99|random> <#C98> <@U99> <@U98|bob>', names)).toBe('#random #C98 @U99 @bob');
  });

  it('shows special mentions and leaves other text (links, plain angle brackets) alone', () => {
    expect(readableMentions('<!here> <!channel> a < b > c <https://x.test|x>', names)).toBe(
      '@here @channel a < b > c <https://x.test|x>',
    );
  });

  it('lists the mentioned ids once each', () => {
    expect(mentionedIds('<@U01> <@U01> <#C01|g> <#C02>')).toEqual({
      members: ['U01'],
      channels: ['C01', 'C02'],
    });
  });
});
