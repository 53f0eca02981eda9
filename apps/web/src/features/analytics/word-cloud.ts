import type { WordCloudItem } from '@flywheel/shared/analytics';

/** Font sizes 16 to 60 px, 8 colours, no rotation, 1 s transition. */
export const FONT_MIN = 16;
export const FONT_MAX = 60;
export const TRANSITION = 'all 1s ease';
export const CLOUD_COLORS = [
  // Dark shades: every word reads at 4.5:1 or more on the card's white (WCAG AA, axe color-contrast).
  '#364fc7',
  '#087f5b',
  '#c2410c',
  '#862e9c',
  '#1864ab',
  '#a61e4d',
  '#1e6b30',
  '#8a5a00',
] as const;

/** The weight of a word is its relevance x 100, rounded down (a whole percent). */
export const weightOf = (relevance: number): number => Math.floor(relevance * 100);

export type CloudWord = { text: string; weight: number; size: number; color: string };

/**
 * Words with their weight, font size (linear in weight between the lightest at 16 px and the heaviest at
 * 60 px; all equal weights get 60 px) and colour (cycling the 8 colours by rank). Heaviest first.
 */
export function layoutWords(items: readonly WordCloudItem[]): CloudWord[] {
  const words = items
    .map((i) => ({ text: i.parsed_value, weight: weightOf(i.relevance) }))
    .sort((a, b) => b.weight - a.weight || a.text.localeCompare(b.text));
  if (words.length === 0) return [];
  const max = words[0]!.weight;
  const min = words[words.length - 1]!.weight;
  return words.map((w, i) => ({
    ...w,
    size:
      max === min
        ? FONT_MAX
        : Math.round(FONT_MIN + ((w.weight - min) / (max - min)) * (FONT_MAX - FONT_MIN)),
    color: CLOUD_COLORS[i % CLOUD_COLORS.length]!,
  }));
}

/** Places the heaviest words in the middle: ranks alternate right and left of the centre. */
export function centreOut<T>(sorted: readonly T[]): T[] {
  const left: T[] = [];
  const right: T[] = [];
  sorted.forEach((w, i) => (i % 2 === 0 ? right.push(w) : left.push(w)));
  return [...left.reverse(), ...right];
}
