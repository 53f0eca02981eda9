import { vi } from 'vitest';

/**
 * Captures what the app saves (lib/csv.ts's saveFile: an object URL on a temporary link that is clicked) as the
 * user would get it: the link's file name and the file's text. Call it in a test; nothing to undo: the setup file
 * gives URL its object URLs back and unstubs Blob after each test, and the config's restoreMocks restores the link's click.
 */
export function captureDownloads() {
  const saved: { name: string; text: string }[] = [];
  const texts = new Map<string, string>();
  let n = 0;
  // jsdom's Blob cannot be read back synchronously: one made of strings (a CSV) keeps its text.
  const JsdomBlob = Blob;
  vi.stubGlobal(
    'Blob',
    class extends JsdomBlob {
      readonly parts: string | null;
      constructor(parts: BlobPart[] = [], options?: BlobPropertyBag) {
        super(parts, options);
        this.parts = parts.every((p) => typeof p === 'string') ? parts.join('') : null;
      }
    },
  );
  Object.assign(URL, {
    createObjectURL: (b: Blob & { parts?: string | null }) => {
      const url = `blob:test/${++n}`;
      texts.set(url, b.parts ?? '');
      return url;
    },
    revokeObjectURL: () => {},
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const text = texts.get(this.href);
    if (text !== undefined && this.download) saved.push({ name: this.download, text });
  });
  return { saved };
}
