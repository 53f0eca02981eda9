import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { DataDirInUseError, lockPglite, pgliteHolder } from './pglite-lock.ts';

describe('one process per embedded database', () => {
  it('refuses a directory a live process holds, takes over one a dead process left, and releases on close', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-lock-')), 'pglite');
    const other = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(`${dir}.pid`, String(other.pid));
      expect(pgliteHolder(dir)).toBe(other.pid);
      expect(() => lockPglite(dir)).toThrow(DataDirInUseError);
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(/open in another Flywheel process/);
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
    }
    // The holder died (kill -9 leaves its pid behind): the next process takes the directory over.
    expect(pgliteHolder(dir)).toBeUndefined();
    const database = await openDatabase({ pgliteDir: dir });
    expect(fs.readFileSync(`${dir}.pid`, 'utf8')).toBe(String(process.pid));
    await database.close();
    expect(fs.existsSync(`${dir}.pid`)).toBe(false);
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });
});
