import { describe, expect, it } from 'vitest';
import { hasInvalidCharacters } from './delivery.ts';
import { truncateText } from './text.ts';

describe('truncateText', () => {
  it('leaves a text within the limit as it is', () => {
    expect(truncateText('hello', 5)).toBe('hello');
    expect(truncateText('', 3)).toBe('');
  });

  it('cuts at the limit with an ellipsis, the ellipsis counted', () => {
    expect(truncateText('abcdefghij', 5)).toBe('abcd…');
    expect(truncateText('abcdefghij', 5).length).toBe(5);
  });

  it('never splits a surrogate pair, an emoji sequence, a flag or a letter from its accent', () => {
    // '😀' is two code units; a cut after 'ab' and one unit of it would leave a lone surrogate.
    expect(truncateText('ab😀cdef', 4)).toBe('ab…');
    expect(truncateText('ab😀cdef', 5)).toBe('ab😀…');
    const family = '👩‍👩‍👧‍👦'; // 11 code units joined by ZWJ
    expect(truncateText(`x${family}yz`, 8)).toBe('x…');
    expect(truncateText(`x${family}yz`, 13)).toBe(`x${family}…`);
    // A first cluster longer than the room is cut between code points (something of the text remains).
    expect(truncateText('🇩🇪🇫🇷🇮🇹', 4)).toBe('🇩…');
    expect(truncateText('🇩🇪🇫🇷🇮🇹', 6)).toBe('🇩🇪…');
    expect(truncateText('🇩🇪🇫🇷🇮🇹', 5)).toBe('🇩🇪…');
    expect(truncateText('cafe\u0301s and more', 5)).toBe('caf…');
    expect(truncateText('cafe\u0301s and more', 6)).toBe('cafe\u0301…');
    for (let max = 1; max < 30; max++) {
      const cut = truncateText(`a😀b${family}c🇩🇪d${'😀'.repeat(5)}`, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(hasInvalidCharacters(cut), `max ${max}: ${JSON.stringify(cut)}`).toBe(false);
    }
  });

  it('a 5 MB text costs no more than a short one: only its head is read', () => {
    const huge = '😀'.repeat(2_500_000);
    const cut = truncateText(huge, 101);
    expect(cut).toBe(`${'😀'.repeat(50)}…`);
  });
});
