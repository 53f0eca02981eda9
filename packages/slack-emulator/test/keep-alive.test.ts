import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulator, type Emu } from './helpers.ts';

/**
 * Clients keep connections to Slack open between calls. Node's HTTP server closes an idle one after 5 s by default,
 * and a client that sends on it at that moment gets a reset ("socket hang up"): the emulator keeps idle connections
 * longer than a client's pause between calls (as the Flywheel server itself does, Fastify's 72 s).
 */
describe('keep-alive', () => {
  let emu: Emu;
  beforeAll(async () => {
    emu = await emulator();
  });
  afterAll(() => emu.close());

  it('an idle connection is still open after 6 s, and the next call goes over it', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(emu.apiUrl.replace(/api\/$/, 'avatars/U1.svg'), { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('socket', (s) => sockets.add(s));
        req.on('error', reject);
      });
    try {
      expect(await get()).toBe(200);
      await new Promise((r) => setTimeout(r, 6_000));
      expect(await get()).toBe(200);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  }, 20_000);
});
