import { describe, expect, it } from 'vitest';
import {
  cutText,
  firstGrapheme,
  hasLoneSurrogate,
  storableJson,
  storableText,
  truncateText,
} from './text.ts';

const family = '👨‍👩‍👧'; // 8 code units, one grapheme cluster
const flag = '🇩🇪'; // 4 code units

describe('cutting text', () => {
  it('never keeps half of an emoji: an emoji at the cut is left out whole', () => {
    const text = `${'a'.repeat(56)}🎉${'b'.repeat(10)}`;
    expect(text.slice(0, 57)).toMatch(/\ud83c$/); // what a plain slice keeps
    expect(cutText(text, 57)).toBe('a'.repeat(56));
    expect(cutText(text, 58)).toBe(`${'a'.repeat(56)}🎉`);
    expect(hasLoneSurrogate(cutText(text, 57))).toBe(false);
  });

  it('keeps grapheme clusters whole: a family, a flag, an accent', () => {
    expect(cutText(`ab${family}cd`, 6)).toBe('ab');
    expect(cutText(`ab${family}cd`, 10)).toBe(`ab${family}`);
    expect(cutText(`x${flag}`, 3)).toBe('x');
    expect(cutText('Cafe\u0301s', 4)).toBe('Caf'); // e and its combining accent go together
  });

  it('a first cluster longer than the cut is cut between code points instead', () => {
    const zalgo = `Z${'\u0301'.repeat(50)}`;
    expect(cutText(zalgo, 10)).toBe(zalgo.slice(0, 10));
    expect(cutText('🎉🎉', 1)).toBe('');
  });

  it('short text is left alone; the ellipsis fits inside the length', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(truncateText('short', 5)).toBe('short');
    const long = `${'a'.repeat(56)}🎉${'b'.repeat(10)}`;
    expect(truncateText(long, 60, '...')).toBe(`${'a'.repeat(56)}...`);
    expect(truncateText(long, 60, '...').length).toBeLessThanOrEqual(60);
  });

  it('the first grapheme of a name', () => {
    expect(firstGrapheme('👩‍💻 Dev')).toBe('👩‍💻');
    expect(firstGrapheme('Émile')).toBe('É');
    expect(firstGrapheme('')).toBe('');
  });
});

describe('text the database can hold', () => {
  it('drops NUL and replaces lone surrogates; leaves pairs and other text alone', () => {
    expect(storableText('a\u0000b')).toBe('ab');
    expect(storableText('x\ud800y')).toBe('x\ufffdy');
    expect(storableText('\udc00')).toBe('\ufffd');
    const fine = `tab\there 🎉 ${family}`;
    expect(storableText(fine)).toBe(fine);
  });

  it('cleans every string and key of a JSON value, and returns the same value when it is clean', () => {
    const clean = { a: ['x', { b: 1 }], c: null };
    expect(storableJson(clean)).toBe(clean);
    expect(storableJson({ 'k\u0000': ['ok', 'n\u0000', { t: '\ud83d' }], n: 2 })).toEqual({
      k: ['ok', 'n', { t: '\ufffd' }],
      n: 2,
    });
  });
});
