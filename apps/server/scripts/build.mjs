#!/usr/bin/env node
// Builds the server into apps/server/dist so that it starts with plain `node`, needing only production
// dependencies (no tsx, no TypeScript): the repository's own TypeScript (the server, packages/shared, and the
// demo's Slack emulator) is bundled; every npm dependency stays a normal import, resolved from node_modules as
// installed by `npm ci --omit=dev`.
//
//   dist/main.js       the server (API, web app, workers), what a service manager or a container runs
//   dist/supervise.js  `npm start`'s supervisor, which runs dist/main.js
//   dist/backup.js     `npm run backup` / `npm run restore`
//   dist/emulator.js   the bundled Slack emulator that demo mode starts
//   dist/migrations/   the database migrations main.js applies at start-up
//
// The bundles sit where the sources do, two folders below the repository, so paths computed from the module's
// location (config.ts's REPO_ROOT: .env, data/, apps/web/dist) are the same built or not.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.join(root, '../..');
const dist = path.join(root, 'dist');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** A package's npm dependencies (not the repository's own @flywheel packages, which are bundled). */
const npmDependencies = (packageJson) =>
  Object.keys(readJson(packageJson).dependencies ?? {}).filter((name) => !name.startsWith('@flywheel/'));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  format: 'esm',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Stack traces name the TypeScript sources (dist/*.js.map); bundled CommonJS code (none today) could still call
  // require().
  banner: {
    js: "process.setSourceMapsEnabled(true); import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
};

fs.rmSync(dist, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: {
    main: path.join(root, 'src/main.ts'),
    supervise: path.join(root, 'src/supervise.ts'),
    backup: path.join(root, 'src/backup.ts'),
  },
  outdir: dist,
  external: npmDependencies(path.join(root, 'package.json')),
});
await build({
  ...common,
  entryPoints: { emulator: path.join(repo, 'packages/slack-emulator/src/cli.ts') },
  outdir: dist,
  external: npmDependencies(path.join(repo, 'packages/slack-emulator/package.json')),
});
fs.cpSync(path.join(root, 'src/db/migrations'), path.join(dist, 'migrations'), { recursive: true });
console.log(`server built into ${path.relative(repo, dist)}`);
