/**
 * The emulator for the backfill benchmark, in its own process (as Slack is remote: its page generation must
 * not run on the server's event loop), behind a small counting proxy on /api/* that records, per Web API
 * method, how many calls were made, how many were answered 429, and when. Driven over IPC by backfill.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, type EmulatorOptions } from '@flywheel/slack-emulator';

export type MethodStats = { calls: number; limited: number; first: number; last: number };
export type ChildReady = {
  url: string;
  apiUrl: string;
  authorizeUrl: string;
  app: { appId: string; clientId: string; clientSecret: string; signingSecret: string };
  teamId: string;
  owner: string;
};
export type ChannelTruth = Record<string, { messages: number; replies: number }>;
export type ToChild =
  | { type: 'start'; options: EmulatorOptions }
  | { type: 'events-url'; url: string }
  | { type: 'stats' }
  | { type: 'truth' }
  | { type: 'close' };

/* eslint-disable @typescript-eslint/no-explicit-any -- ground-truth rows are open JSON */

async function main() {
  let emu: Awaited<ReturnType<typeof startEmulator>> | undefined;
  let proxy: http.Server | undefined;
  const stats = new Map<string, MethodStats>();
  const reply = (m: unknown) => process.send!(m);

  process.on('message', async (msg: ToChild) => {
    try {
      if (msg.type === 'start') {
        emu = await startEmulator(msg.options);
        const target = new URL(emu.apiUrl);
        const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
        proxy = http.createServer((req, res) => {
          const method = (req.url ?? '').split('?')[0]!.replace(/^\/api\//, '');
          const upstream = http.request(
            {
              host: target.hostname,
              port: target.port,
              path: `${target.pathname.replace(/\/$/, '')}/${(req.url ?? '').replace(/^\/api\//, '')}`,
              method: req.method,
              headers: req.headers,
              agent,
            },
            (up) => {
              const now = Date.now();
              const s = stats.get(method) ?? { calls: 0, limited: 0, first: now, last: now };
              s.calls++;
              s.last = now;
              if (up.statusCode === 429) s.limited++;
              stats.set(method, s);
              res.writeHead(up.statusCode ?? 502, up.headers);
              up.pipe(res);
            },
          );
          upstream.on('error', () => {
            res.writeHead(502);
            res.end();
          });
          req.pipe(upstream);
        });
        await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', r));
        const port = (proxy.address() as AddressInfo).port;
        const teamId = emu.teamIds[0]!;
        let owner = '';
        for (const m of emu.truth(teamId).members())
          if ((m as { is_primary_owner?: boolean }).is_primary_owner) owner = m.id;
        const ready: ChildReady = {
          url: emu.url,
          apiUrl: `http://127.0.0.1:${port}/api/`,
          authorizeUrl: emu.authorizeUrl,
          app: {
            appId: emu.app.appId,
            clientId: emu.app.clientId,
            clientSecret: emu.app.clientSecret,
            signingSecret: emu.app.signingSecret,
          },
          teamId,
          owner,
        };
        reply({ type: 'ready', ready });
      } else if (msg.type === 'events-url') {
        reply({ type: 'events-url', ok: await emu!.setEventsUrl(msg.url) });
      } else if (msg.type === 'stats') {
        reply({ type: 'stats', stats: Object.fromEntries(stats) });
      } else if (msg.type === 'truth') {
        // What the bot can see, counted as Slack counts it (the same rules as the ingest ground-truth test).
        const truth = emu!.truth(emu!.teamIds[0]!);
        const botUser = truth.install()?.botUserId;
        const visible = new Set(
          truth
            .channels()
            .filter((c: any) => !c.is_im && (c.members as string[]).includes(botUser!))
            .map((c: any) => c.id as string),
        );
        const bots = new Set<string>();
        for (const m of truth.members()) if (m.is_bot) bots.add(m.id);
        const out: ChannelTruth = {};
        let total = 0;
        for (const m of truth.messages()) {
          total++;
          if (!visible.has(m.channel) || m.deleted) continue;
          if (m.subtype && !['thread_broadcast', 'file_share', 'me_message'].includes(m.subtype)) continue;
          if (m.bot_id || !m.user || bots.has(m.user)) continue;
          const c = (out[m.channel] ??= { messages: 0, replies: 0 });
          if (m.thread_ts && m.thread_ts !== m.ts) c.replies++;
          else c.messages++;
        }
        reply({ type: 'truth', channels: out, visible: visible.size, total });
      } else if (msg.type === 'close') {
        proxy?.close();
        await emu?.close();
        process.exit(0);
      }
    } catch (err) {
      reply({ type: 'error', error: String((err as Error)?.stack ?? err) });
    }
  });
}

if (process.send) void main();
