import { describe, expect, it } from 'vitest';
import { CLOUD_COLORS, FONT_MAX, FONT_MIN, centreOut, layoutWords, weightOf } from './word-cloud.ts';

describe('word cloud', () => {
  it('weighs a word as relevance x 100 rounded down', () => {
    expect(weightOf(0.999)).toBe(99);
    expect(weightOf(0.5)).toBe(50);
    expect(weightOf(0.0149)).toBe(1);
    expect(weightOf(1)).toBe(100);
  });

  it('sizes words from 16 px (lightest) to 60 px (heaviest) and cycles 8 colours', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ parsed_value: `w${i}`, relevance: (i + 1) / 10 }));
    const words = layoutWords(items);
    expect(words[0]).toMatchObject({ text: 'w9', weight: 100, size: FONT_MAX, color: CLOUD_COLORS[0] });
    expect(words.at(-1)).toMatchObject({ text: 'w0', weight: 10, size: FONT_MIN });
    expect(words[8]!.color).toBe(CLOUD_COLORS[0]);
    expect(CLOUD_COLORS).toHaveLength(8);
    for (const w of words) {
      expect(w.size).toBeGreaterThanOrEqual(16);
      expect(w.size).toBeLessThanOrEqual(60);
    }
    // Half way between the lightest and heaviest weight is half way between 16 and 60.
    expect(
      layoutWords([
        { parsed_value: 'a', relevance: 0 },
        { parsed_value: 'b', relevance: 0.5 },
        { parsed_value: 'c', relevance: 1 },
      ]).find((w) => w.text === 'b')!.size,
    ).toBe(38);
  });

  it('gives equal weights the largest size and puts the heaviest words in the middle', () => {
    expect(layoutWords([{ parsed_value: 'solo', relevance: 0.3 }])[0]!.size).toBe(FONT_MAX);
    expect(centreOut([1, 2, 3, 4, 5])).toEqual([4, 2, 1, 3, 5]);
  });
});
