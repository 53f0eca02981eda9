#!/usr/bin/env node
// Builds the web app in two passes so that a cold load of the dashboard fetches a few files, not ~70.
//
// Left to itself the bundler gives every combination of lazy pages that share code a chunk of its own (a cold
// load of Home fetched ~70 files, which the browser's six HTTP/1.1 connections fetch in turn). Which modules a
// route really needs is only known after tree-shaking (barrel packages such as @mantine/core make every module
// look reachable from every page), so the first pass builds in memory and reads that from its chunks; the second
// pass groups:
// - 'auth': what the login page needs beyond the entry chunk;
// - 'dashboard': what the dashboard frame (top bar, sidebar, its queries) needs beyond the login page;
// - 'pages-…': what two or more of Home, Analytics and Members need beyond those, by the pages that need it
//   (charts for Home and Analytics, tables for all three).
// The login route loads exactly what it did. Every other module is placed as the bundler places it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { compressAssets } from './compress.mjs';
import { FRAME, MAIN_PAGES } from './main-pages.mjs';

// Always a production build, whatever NODE_ENV the shell has (`NODE_ENV=development npm start` built React's
// development bundle, over the login route's budget): a development build is what the Vite dev server serves.
process.env.NODE_ENV = 'production';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (file) => path.join(root, file);

const first = await build({ root, logLevel: 'warn', build: { write: false, manifest: false } });
const chunks = (Array.isArray(first) ? first[0] : first).output.filter((o) => o.type === 'chunk');
const byFile = new Map(chunks.map((c) => [c.fileName, c]));
const byFacade = (file) => {
  const chunk = chunks.find((c) => c.facadeModuleId === at(file));
  if (!chunk) throw new Error(`build: no chunk for ${file}`);
  return chunk;
};

/** The modules of these chunks and of every chunk they import statically. */
function modulesOf(...start) {
  const seen = new Set();
  const stack = [...start];
  while (stack.length) {
    const chunk = stack.pop();
    if (seen.has(chunk.fileName)) continue;
    seen.add(chunk.fileName);
    for (const file of chunk.imports) stack.push(byFile.get(file));
  }
  return new Set([...seen].flatMap((file) => byFile.get(file).moduleIds));
}
const minus = (set, ...others) => new Set([...set].filter((m) => !others.some((o) => o.has(m))));

const entry = modulesOf(chunks.find((c) => c.isEntry));
const login = modulesOf(
  chunks.find((c) => c.isEntry),
  byFacade('src/features/auth/LoginPage.tsx'),
);
const auth = minus(login, entry);
const frame = minus(modulesOf(byFacade(FRAME)), login);
const pages = Object.values(MAIN_PAGES).map((files) =>
  minus(modulesOf(...files.map(byFacade)), login, frame),
);
/** For a module two or more of the pages need: which ones ('pages-0-1' for Home and Analytics, ...). */
const sharedBy = new Map();
for (const m of new Set(pages.flatMap((page) => [...page]))) {
  const users = pages.flatMap((page, i) => (page.has(m) ? [i] : []));
  if (users.length >= 2) sharedBy.set(m, `pages-${users.join('-')}`);
}
// A module another chunk imports dynamically stays the head of its own chunk.
for (const chunk of chunks) {
  if (!chunk.facadeModuleId) continue;
  auth.delete(chunk.facadeModuleId);
  frame.delete(chunk.facadeModuleId);
  sharedBy.delete(chunk.facadeModuleId);
}

await build({
  root,
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The sets are closed under static imports (beyond the login page's modules, which load first), so
            // nothing outside them needs pulling in.
            { name: 'auth', test: (id) => auth.has(id), includeDependenciesRecursively: false, priority: 3 },
            {
              name: 'dashboard',
              test: (id) => frame.has(id),
              includeDependenciesRecursively: false,
              priority: 2,
            },
            { name: (id) => sharedBy.get(id) ?? null, includeDependenciesRecursively: false, priority: 1 },
          ],
        },
      },
    },
  },
});

const compressed = compressAssets(at('dist'));
const sum = (key) => compressed.reduce((n, f) => n + f[key], 0);
console.log(
  `compressed ${compressed.length} files: ${(sum('raw') / 1024).toFixed(0)} KB raw, ` +
    `${(sum('br') / 1024).toFixed(0)} KB brotli, ${(sum('gz') / 1024).toFixed(0)} KB gzip`,
);
