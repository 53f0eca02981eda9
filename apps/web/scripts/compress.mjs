// Brotli and gzip copies of the built files beside them (`app-abc.js.br`, `app-abc.js.gz`): the server sends the
// copy the browser accepts (@fastify/static's preCompressed), so a first visit over a real network moves ~1/4 of
// the bytes, without the server compressing anything while it answers.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Text formats only: fonts (woff2) and images are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map']);
/** Below this, the copies save too little to be worth a file (and @fastify/static skips them anyway). */
export const MIN_BYTES = 1024;

/**
 * Writes `.br` and `.gz` beside every compressible file of `dir` (recursively) of at least MIN_BYTES, and
 * returns the files it compressed with their sizes. A copy that would not be smaller is not written.
 */
export function compressAssets(dir) {
  const done = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    // Not served: the build's own files (.vite/manifest.json).
    if (
      path
        .relative(dir, file)
        .split(path.sep)
        .some((part) => part.startsWith('.'))
    )
      continue;
    if (!COMPRESSIBLE.has(path.extname(file))) continue;
    const raw = fs.readFileSync(file);
    if (raw.length < MIN_BYTES) continue;
    const br = zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gz = zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION });
    if (br.length < raw.length) fs.writeFileSync(`${file}.br`, br);
    if (gz.length < raw.length) fs.writeFileSync(`${file}.gz`, gz);
    done.push({ file, raw: raw.length, br: br.length, gz: gz.length });
  }
  return done;
}
