#!/usr/bin/env node
// Prints the gzip size of the JavaScript the /auth/login route loads (the entry chunk, its static
// imports, and the login page's lazy chunk with its static imports) and fails above the budget.
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET_KB = 200;
const LOGIN_MODULE = 'src/features/auth/LoginPage.tsx';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');

if (!existsSync(manifestPath)) {
  console.error(`bundle-report: ${manifestPath} is missing; run vite build first.`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

const entryKeys = Object.keys(manifest).filter((k) => manifest[k].isEntry);
if (entryKeys.length === 0 || !manifest[LOGIN_MODULE]) {
  console.error(`bundle-report: could not find the entry or ${LOGIN_MODULE} in the manifest.`);
  process.exit(1);
}

/** A chunk and everything it imports statically (what the browser fetches before running it). */
function closure(keys) {
  const seen = new Set();
  const stack = [...keys];
  while (stack.length) {
    const key = stack.pop();
    if (seen.has(key)) continue;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) stack.push(dep);
  }
  return seen;
}

const keys = closure([...entryKeys, LOGIN_MODULE]);
const files = [...new Set([...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')))];
const rows = files
  .map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const kb = (n) => (n / 1024).toFixed(1);
console.log('\nJavaScript loaded by /auth/login:');
for (const r of rows)
  console.log(`  ${kb(r.gzip).padStart(7)} KB gzip  ${kb(r.raw).padStart(8)} KB raw  ${r.file}`);
const total = rows.reduce((sum, r) => sum + r.gzip, 0);
console.log(`Login page JavaScript: ${kb(total)} KB gzip (budget ${BUDGET_KB} KB)`);

const forbidden = ['components/charts', 'tiptap', 'prosemirror'];
const leaked = [...keys].filter((k) => forbidden.some((f) => k.includes(f)));
if (leaked.length > 0) {
  console.error(`bundle-report: the login route pulls in heavy modules: ${leaked.join(', ')}`);
  process.exit(1);
}
if (total > BUDGET_KB * 1024) {
  console.error(`bundle-report: over budget by ${total - BUDGET_KB * 1024} bytes`);
  process.exit(1);
}
