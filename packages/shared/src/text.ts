/*
 * Cutting and cleaning people's text, one way on the server and in the browser. A cut never splits a character
 * (an emoji is two UTF-16 code units: `slice` can keep half of it, a lone surrogate that JSON, PostgreSQL's
 * jsonb and Slack all refuse) nor a grapheme cluster (a flag, a family emoji, a skin tone, a letter with its
 * accents). Lengths stay counted in UTF-16 code units, as `String.length` and the limits of the contracts are.
 */

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The end of the last whole code point at or before `max` (a pair straddling it is left out). */
function codePointEnd(text: string, max: number): number {
  return max > 0 && max < text.length && isHigh(text.charCodeAt(max - 1)) && isLow(text.charCodeAt(max))
    ? max - 1
    : max;
}

/**
 * The longest start of `text` at most `max` code units long that ends between two grapheme clusters. When
 * the first cluster alone is longer than `max` (a letter under hundreds of combining marks), the cut falls
 * between two code points instead, so something of the text remains.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let end = 0;
  // Only the head is segmented (a cluster is rarely longer than a few dozen code units), so cutting a 5 MB text
  // costs no more than a short one.
  for (const { index, segment } of graphemes.segment(text.slice(0, max + 64))) {
    if (index + segment.length > max) break;
    end = index + segment.length;
  }
  return text.slice(0, end > 0 ? end : codePointEnd(text, max));
}

/**
 * `text` when it is at most `max` code units long, else its start cut (as `cutText`) and `ellipsis` after it,
 * the whole at most `max` long.
 */
export function truncateText(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  return `${cutText(text, Math.max(0, max - ellipsis.length))}${ellipsis}`;
}

/** The first grapheme cluster of `text` (an avatar's letter: 'É', '👩‍💻', never half of an emoji). */
export function firstGrapheme(text: string): string {
  for (const { segment } of graphemes.segment(text)) return segment;
  return '';
}

/** A high surrogate without its low half, or a low one without its high half. */
// eslint-disable-next-line no-control-regex -- NUL is one of the things looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether `text` holds half of a surrogate pair (a broken emoji). */
export function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHigh(c)) {
      if (!isLow(text.charCodeAt(i + 1))) return true;
      i++;
    } else if (isLow(c)) return true;
  }
  return false;
}

/**
 * Text PostgreSQL can hold, in a text column and in jsonb: NUL removed (no PostgreSQL text holds it) and each
 * lone surrogate replaced by U+FFFD (jsonb refuses it; a text column would get U+FFFD from the driver anyway).
 */
export function storableText(text: string): string {
  UNSTORABLE.lastIndex = 0;
  if (!UNSTORABLE.test(text)) return text;
  return text.replace(UNSTORABLE, (c) => (c === '\u0000' ? '' : '\ufffd'));
}

/** `storableText` over every string (and object key) of a JSON value; the value itself when nothing changes. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) {
    const out = value.map(storableJson);
    return out.some((v, i) => v !== value[i]) ? (out as T) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = storableText(k);
    const clean = storableJson(v);
    if (key !== k || clean !== v) changed = true;
    out[key] = clean;
  }
  return changed ? (out as T) : value;
}
