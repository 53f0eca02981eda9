import { beforeEach, vi } from 'vitest';

/**
 * The files the app saves (lib/csv.ts's saveFile: an object URL on a temporary link that is clicked), as the
 * user would get them: the link's file name and the Blob's text. Call in a describe block (jsdom does not follow
 * a clicked link; the setup file gives URL its own object URL functions back after each test).
 */
export function captureDownloads() {
  const blobs = new Map<string, Blob>();
  const clicked: { name: string; blob: Blob }[] = [];
  beforeEach(() => {
    blobs.clear();
    clicked.length = 0;
    let n = 0;
    Object.assign(URL, {
      createObjectURL: (b: Blob) => {
        const url = `blob:test/${++n}`;
        blobs.set(url, b);
        return url;
      },
      revokeObjectURL: (url: string) => void blobs.delete(url),
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      const blob = blobs.get(this.href);
      if (blob && this.download) clicked.push({ name: this.download, blob });
    });
  });
  return {
    count: () => clicked.length,
    /** The last file saved, read. */
    async last(): Promise<{ name: string; text: string } | undefined> {
      const f = clicked.at(-1);
      if (!f) return undefined;
      // jsdom's Blob has no text(); its FileReader reads the bytes (readAsText would drop a byte order mark).
      const bytes = await new Promise<ArrayBuffer>((resolve, reject) => {
        const r = new FileReader();
        r.onload = () => resolve(r.result as ArrayBuffer);
        r.onerror = () => reject(r.error);
        r.readAsArrayBuffer(f.blob);
      });
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
      return { name: f.name, text };
    },
  };
}
