const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * `text` cut to at most `max` UTF-16 code units, ending in `…` when cut. The cut falls between graphemes (what a
 * reader sees as one character), so it never splits a surrogate pair, an emoji sequence or a letter from its
 * accents. Only the head of a long text is segmented, so a 5 MB text costs no more than a short one.
 */
export function truncateText(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  const room = Math.max(0, max - ellipsis.length);
  // A grapheme is rarely longer than a few dozen code units; the head leaves room for the one the cut falls in.
  const head = text.slice(0, room + 64);
  let end = 0;
  for (const { segment, index } of graphemes.segment(head)) {
    if (index + segment.length > room) break;
    end = index + segment.length;
  }
  return `${text.slice(0, end)}${ellipsis}`;
}
