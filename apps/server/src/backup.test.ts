import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupError, backup, restore } from './backup.ts';
import { loadConfig } from './config.ts';
import { createScratchDatabase, testDbKind } from './testing/build-test-app.ts';
import { demoEnv, freePort, runScript, stopStarted, waitFor } from './testing/processes.ts';

// Deadlines, not speed checks: a demo server starts, imports and seeds on a busy machine.
const STARTUP_MS = 150_000;
const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-backup-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  await stopStarted();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

type Demo = { base: string; token: string; teamId: string };

/** Signs in as the demo administrator once the demo's workspace is imported and seeded. */
async function demoSession(base: string, output?: () => string): Promise<Demo> {
  // The demo administrator exists once the public config says demo mode (signing in before would count failures).
  await waitFor(async () => {
    const c = (await (await fetch(`${base}/api/v0/public/config`)).json()) as { demoMode: boolean };
    return c.demoMode ? true : undefined;
  }, STARTUP_MS);
  const { token, teamId } = await waitFor(async () => {
    const r = await fetch(`${base}/api/v0/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@flywheel.local', password: 'flywheel-demo' }),
    }).catch(() => undefined);
    if (!r?.ok) return undefined;
    const body = (await r.json()) as { token: string; workspaces: { team_id: string }[] };
    return body.workspaces[0] ? { token: body.token, teamId: body.workspaces[0].team_id } : undefined;
  }, STARTUP_MS);
  // The first start seeds the demo's actions once the import is done (a restored database has them already).
  if (output) await waitFor(async () => (output().includes('demo seeded') ? true : undefined), STARTUP_MS);
  return { base, token, teamId };
}

const get = async (d: Demo, url: string) => {
  const r = await fetch(`${d.base}/api/v0${url}`, { headers: { authorization: `Bearer ${d.token}` } });
  expect(r.status, url).toBe(200);
  return (await r.json()) as { data: unknown };
};

/** What Home shows: its cards, highlights and channels. */
const homeFigures = async (d: Demo) => ({
  cards: (await get(d, `/homepage/getcardsdata/${d.teamId}`)).data,
  highlights: (await get(d, `/homepage/workspacehighlights/${d.teamId}`)).data,
  channels: (await get(d, `/homepage/getchanneldata/${d.teamId}`)).data,
});

describe(`backup and restore (${testDbKind() === 'postgres' ? 'PostgreSQL' : 'embedded database'})`, () => {
  it(
    'backup, wipe, restore into a fresh data directory: the same Home figures, and a send that works afterwards',
    async () => {
      const scratchA = testDbKind() === 'postgres' ? await createScratchDatabase() : undefined;
      const scratchB = testDbKind() === 'postgres' ? await createScratchDatabase() : undefined;
      try {
        const [port, emulatorPort] = [await freePort(), await freePort()];
        const dataA = tempDir();
        const envOf = (dataDir: string, databaseUrl?: string) => ({
          ...demoEnv({ port, emulatorPort, dataDir, members: 30, channels: 4, days: 5 }),
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          LOGIN_MAX_PER_IP: '1000',
        });
        const first = runScript('main.ts', envOf(dataA, scratchA?.url));
        const demoA = await demoSession(`http://127.0.0.1:${port}`, first.output);
        const before = await homeFigures(demoA);
        // Figures worth comparing: the demo's history is in them.
        expect(JSON.stringify(before.cards)).toMatch(/[1-9]/);
        expect((before.channels as unknown[]).length).toBeGreaterThan(0);

        // A backup of the embedded database is refused while the server has it open.
        const backupDir = path.join(tempDir(), 'backup');
        if (!scratchA) {
          await expect(backup(loadConfig(envOf(dataA)), backupDir, () => {})).rejects.toThrow(
            /open in a running Flywheel process/,
          );
        }
        first.child.kill('SIGTERM');
        // A stop that fails says why: the end of the server's log (a stop past 25 s, or its error).
        expect(await first.exited, first.output().slice(-4000)).toBe(0);

        const logs: string[] = [];
        const manifest = await backup(loadConfig(envOf(dataA, scratchA?.url)), backupDir, (l) =>
          logs.push(l),
        );
        expect(manifest).toMatchObject({ database: testDbKind(), secretsKey: 'data' });
        expect(manifest.files).toEqual(expect.arrayContaining(['secrets.key', 'demo-slack-app.json']));
        expect(logs.join('\n')).toContain('The key that seals the Slack tokens is in the backup');
        // Readable by its owner only: it holds the sealed tokens and the key that opens them.
        for (const f of [
          'data/secrets.key',
          testDbKind() === 'postgres' ? 'postgres.dump' : 'pglite.tar.gz',
        ]) {
          expect(fs.statSync(path.join(backupDir, f)).mode & 0o077, f).toBe(0);
        }

        // Wipe: the data directory and the database are gone.
        fs.rmSync(dataA, { recursive: true, force: true });
        await scratchA?.drop();

        const dataB = tempDir();
        const restored = await restore(loadConfig(envOf(dataB, scratchB?.url)), backupDir, {}, () => {});
        expect(restored.tokens).toBeGreaterThan(0);
        // A second restore over it is refused without --force.
        await expect(
          restore(loadConfig(envOf(dataB, scratchB?.url)), backupDir, {}, () => {}),
        ).rejects.toThrow(BackupError);

        const second = runScript('main.ts', envOf(dataB, scratchB?.url));
        const demoB = await demoSession(`http://127.0.0.1:${port}`);
        // Nothing was seeded again: the restored database remembers its seed.
        expect(second.output()).not.toContain('seeding the demo');
        expect(demoB.teamId).toBe(demoA.teamId);
        expect(await homeFigures(demoB)).toEqual(before);
        // The restored Slack token works: a DM is delivered.
        const member = (
          (await get(demoB, `/members/getmembersuggestion/${demoB.teamId}`)).data as { value: string }[]
        )[0]!;
        const sent = await fetch(`${demoB.base}/api/v0/member/directmessage`, {
          method: 'POST',
          headers: { authorization: `Bearer ${demoB.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            team_id: demoB.teamId,
            sender: 'bot',
            id: member.value,
            text: 'After the restore',
          }),
        });
        expect(sent.status).toBe(202);
        const receiptId = ((await sent.json()) as { data: { receipt_id: number } }).data.receipt_id;
        const receipt = await waitFor(async () => {
          const all = (await get(demoB, `/receipts/getallreceipts/${demoB.teamId}`)).data as {
            id: number;
            successful_recipient_count: number;
            failed_recipient_count: number;
          }[];
          const r = all.find((x) => x.id === receiptId);
          return r && r.successful_recipient_count + r.failed_recipient_count > 0 ? r : undefined;
        }, 60_000);
        expect(receipt).toMatchObject({ successful_recipient_count: 1, failed_recipient_count: 0 });
        second.child.kill('SIGTERM');
        expect(await second.exited, second.output().slice(-4000)).toBe(0);
      } finally {
        await stopStarted();
        await scratchA?.drop().catch(() => {});
        await scratchB?.drop();
      }
    },
    STARTUP_MS * 3,
  );

  it('refuses a restore whose secrets key would not open its tokens, and a backup of another database kind', async () => {
    const dataDir = tempDir();
    const source = tempDir();
    fs.writeFileSync(
      path.join(source, 'manifest.json'),
      JSON.stringify({
        format: 1,
        createdAt: new Date().toISOString(),
        version: '0.1.0',
        database: testDbKind(),
        migrations: 1,
        secretsKey: 'environment',
        keyFingerprint: '0000000000000000',
        files: [],
      }),
    );
    const env = {
      DATA_DIR: dataDir,
      ...(testDbKind() === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : {}),
    };
    await expect(restore(loadConfig(env), source, {}, () => {})).rejects.toThrow(/set the same SECRETS_KEY/);
    await expect(
      restore(
        loadConfig({ ...env, SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') }),
        source,
        {},
        () => {},
      ),
    ).rejects.toThrow(/SECRETS_KEY is not the key the backup was sealed with/);
    const otherKind =
      testDbKind() === 'postgres'
        ? { DATA_DIR: dataDir }
        : { ...env, DATABASE_URL: 'postgres://x@127.0.0.1:1/x' };
    await expect(restore(loadConfig(otherKind), source, {}, () => {})).rejects.toThrow(/The backup holds/);
    await expect(restore(loadConfig(env), tempDir(), {}, () => {})).rejects.toThrow(/not a Flywheel backup/);
  });
});
