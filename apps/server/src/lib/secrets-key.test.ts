import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, loadConfig } from '../config.ts';
import { secretsKey } from './secrets-key.ts';

const run = promisify(execFile);
const tsxLoader = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const moduleUrl = pathToFileURL(path.join(REPO_ROOT, 'apps/server/src/lib/secrets-key.ts')).href;

describe('the generated secrets key (embedded use, no SECRETS_KEY)', () => {
  it('processes starting together on a new data directory all get the one key; none fails or reads it half written', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-key-'));
    // Each loads the code, then waits for the same instant, so that their first looks at the file coincide.
    const at = Date.now() + 4000;
    const script = `const { secretsKey } = await import(${JSON.stringify(moduleUrl)});
      while (Date.now() < ${at});
      process.stdout.write(secretsKey({ secretsKey: undefined, dataDir: ${JSON.stringify(dataDir)} }).toString('base64'));`;
    const keys = await Promise.all(
      Array.from({ length: 6 }, () =>
        run(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script]).then(
          (r) => r.stdout,
        ),
      ),
    );
    expect(new Set(keys).size).toBe(1);
    expect(Buffer.from(keys[0]!, 'base64')).toHaveLength(32);
    // Only the key is left: no draft of a process that lost.
    expect(fs.readdirSync(dataDir)).toEqual(['secrets.key']);
    expect(fs.statSync(path.join(dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
    // And it is the key this process reads too, every time.
    const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }), secretsKey: undefined };
    expect(secretsKey(config).toString('base64')).toBe(keys[0]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
});
