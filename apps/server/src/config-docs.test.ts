import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES, REPO_ROOT } from './config.ts';

/**
 * The configuration is documented twice, for two readers: `.env.example` (a file to copy) and
 * docs/operations/configuration.md (a table). Both must list exactly the variables the server reads: the
 * environment schema of config.ts, and the supervisor's own two (supervise.ts, which `npm start` runs).
 */
const SUPERVISOR = ['SUPERVISE_UNHEALTHY_SECONDS', 'SUPERVISE_STARTUP_SECONDS'];
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe('configuration documents', () => {
  const expected = sorted([...ENV_VARIABLES, ...SUPERVISOR]);

  it('the supervisor reads the two variables listed for it', () => {
    const source = read('apps/server/src/supervise.ts');
    for (const name of SUPERVISOR) expect(source).toContain(`process.env.${name}`);
    expect(ENV_VARIABLES.length).toBeGreaterThan(50);
  });

  it('.env.example lists every variable the server reads, and nothing else', () => {
    const listed = [...read('.env.example').matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(sorted(listed)).toEqual(expected);
  });

  it('the configuration page has a row for every variable the server reads, and nothing else', () => {
    // The first cell of each table row names one variable or a few (`DEMO_EMAIL` / `DEMO_PASSWORD`).
    const rows = read('docs/operations/configuration.md')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|')[1]!);
    const documented = rows.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
    expect(sorted(documented)).toEqual(expected);
  });
});
