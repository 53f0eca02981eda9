/**
 * Scales for the charts: round axis ticks from 0 to a little over the largest value, and Mantine colour names
 * ('indigo.6') as CSS variables.
 */

/** Ticks from 0 up to at least `max`, about `count` of them, on a 1, 2, 2.5 or 5 step (whole steps unless `decimals`). */
export function niceTicks(max: number, count = 5, decimals = false): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1];
  const raw = max / Math.max(1, count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const whole = (x: number) => Math.abs(x - Math.round(x)) < 1e-9;
  // The first round step that covers the range (a whole one for counts: no 2.5 between 0 and 5).
  const step =
    [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((x) => x >= raw - 1e-12 && (decimals || whole(x))) ??
    Math.max(1, 10 * magnitude);
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** 'indigo.6' → var(--mantine-color-indigo-6); any other CSS colour as given. */
export function chartColor(color: string): string {
  const m = /^([a-z]+)\.(\d)$/.exec(color);
  return m ? `var(--mantine-color-${m[1]}-${m[2]})` : color;
}

/** A value's share of the axis's top, in percent (0 at the bottom). */
export const percentOf = (value: number, top: number): number => (top > 0 ? (value / top) * 100 : 0);

/**
 * Which category labels an axis shows so that they do not crowd: all when `every`, the given ones when `only`,
 * otherwise about `most` of them on an even step that keeps the first and the last.
 */
export function labelIndexes(
  keys: readonly string[],
  opts: { only?: readonly string[]; every?: boolean; most?: number },
): number[] {
  if (opts.only) {
    const wanted = new Set(opts.only);
    return keys.flatMap((k, i) => (wanted.has(k) ? [i] : []));
  }
  const n = keys.length;
  if (opts.every || n <= (opts.most ?? 8)) return keys.map((_, i) => i);
  const step = Math.ceil((n - 1) / ((opts.most ?? 8) - 1));
  const out: number[] = [];
  for (let i = 0; i < n - 1; i += step) out.push(i);
  // The last label, unless it would sit on top of the one before it.
  if (n - 1 - out[out.length - 1]! < step / 2) out.pop();
  out.push(n - 1);
  return out;
}
