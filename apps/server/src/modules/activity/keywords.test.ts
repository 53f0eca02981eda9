import { describe, expect, it } from 'vitest';
import { keywordsOf, segmentedWords, wordsOf } from './keywords.ts';

describe('keywordsOf', () => {
  it('keeps topic words as lemmas and drops stop words, markup and numbers', () => {
    expect(
      keywordsOf('The deployments were failing again, <@U123> see https://x.io :tada: in <#C1|general> 2024'),
    ).toEqual(['deployment', 'fail']);
  });
  it('counts a keyword once per message and lower-cases it', () => {
    expect(keywordsOf('Release! release notes for the RELEASE')).toEqual(['release', 'note']);
  });
  it('returns nothing for chat filler', () => {
    expect(keywordsOf('ok thanks lol, yes I think so')).toEqual([]);
  });
});

describe('wordsOf (the ASCII fast path)', () => {
  // Lone underscores are not word-like to ICU; the fast path yields them and keywordsOf drops them (< 3).
  const fast = (t: string) => wordsOf(t).filter((w) => w !== '_');
  it('finds the same words as Intl.Segmenter on every ASCII pair between letters, digits and underscores', () => {
    const chars = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), '\t', '\n', '\r'];
    const differ: string[] = [];
    for (const x of ['a', '1', '_', ' '])
      for (const p of chars)
        for (const q of chars)
          for (const y of ['a', '1', '_']) {
            const t = x + p + q + y;
            if (JSON.stringify(fast(t)) !== JSON.stringify(segmentedWords(t))) differ.push(t);
          }
    expect(differ).toEqual([]);
  });
  it('finds the same words as Intl.Segmenter on random punctuation-heavy ASCII', () => {
    const alphabet = "aAzZeb019 __..::'',,;;--!\"#$%&()*+/<=>?@[\\]^`{|}~\t\n\r xy";
    let seed = 2026;
    const rand = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 4294967296;
    };
    const differ: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      let t = '';
      for (let j = 1 + Math.floor(rand() * 14); j > 0; j--)
        t += alphabet[Math.floor(rand() * alphabet.length)];
      if (JSON.stringify(fast(t)) !== JSON.stringify(segmentedWords(t))) differ.push(t);
    }
    expect(differ).toEqual([]);
  });
  it('leaves other scripts to the segmenter', () => {
    expect(wordsOf('naïve café, 東京 tower')).toEqual(['naïve', 'café', '東京', 'tower']);
    expect(keywordsOf('Grüße aus München: das Deployment läuft')).toContain('deployment');
  });
});
