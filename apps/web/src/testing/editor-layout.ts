/*
 * ProseMirror measures the selection to scroll it into view; jsdom has no layout. Test files that type into
 * the rich editor import this for its side effect.
 */
const emptyRect = {
  x: 0,
  y: 0,
  top: 0,
  left: 0,
  bottom: 0,
  right: 0,
  width: 0,
  height: 0,
  toJSON: () => ({}),
};
const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;

if (typeof Range !== 'undefined' && !Range.prototype.getClientRects) {
  Range.prototype.getClientRects = noRects;
  Range.prototype.getBoundingClientRect = () => emptyRect as DOMRect;
}
if (typeof document !== 'undefined' && !document.elementFromPoint) document.elementFromPoint = () => null;
