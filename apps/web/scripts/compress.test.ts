import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { compressAssets, MIN_BYTES } from './compress.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('compressAssets (the build)', () => {
  it('writes brotli and gzip copies of the text files the server sends, and only of those', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-dist-'));
    dirs.push(dist);
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.mkdirSync(path.join(dist, '.vite'));
    const js = `export const rows = [${'1, '.repeat(2000)}];\n`;
    const files: Record<string, string | Buffer> = {
      'index.html': `<!doctype html><title>Flywheel</title>${'<p>x</p>'.repeat(300)}`,
      'assets/index-abc.js': js,
      'assets/index-abc.css': `.a{color:red}\n`.repeat(200),
      'assets/tiny-abc.js': 'console.log(1)',
      'assets/inter-abc.woff2': Buffer.alloc(4096, 7),
      '.vite/manifest.json': JSON.stringify({ x: 'y'.repeat(4096) }),
    };
    for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dist, name), body);

    const done = compressAssets(dist).map((f) => path.relative(dist, f.file));
    expect(done.sort()).toEqual(['assets/index-abc.css', 'assets/index-abc.js', 'index.html']);
    for (const name of done) {
      const raw = fs.readFileSync(path.join(dist, name));
      const br = fs.readFileSync(path.join(dist, `${name}.br`));
      const gz = fs.readFileSync(path.join(dist, `${name}.gz`));
      expect(zlib.brotliDecompressSync(br).equals(raw)).toBe(true);
      expect(zlib.gunzipSync(gz).equals(raw)).toBe(true);
      expect(br.length).toBeLessThan(raw.length);
    }
    // Below MIN_BYTES, fonts (compressed already) and the build's own files: no copies.
    expect(Buffer.byteLength(files['assets/tiny-abc.js']!)).toBeLessThan(MIN_BYTES);
    for (const name of ['assets/tiny-abc.js', 'assets/inter-abc.woff2', '.vite/manifest.json']) {
      expect(fs.existsSync(path.join(dist, `${name}.br`))).toBe(false);
      expect(fs.existsSync(path.join(dist, `${name}.gz`))).toBe(false);
    }
  });
});
