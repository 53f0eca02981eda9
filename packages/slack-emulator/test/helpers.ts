import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, type EmulatorOptions } from '../src/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../../..');
/** Slack's official spec files, kept in the repository (third-party data with Slack's licence beside them). */
export const specsDir = path.resolve(here, '../spec/slack-api-specs');

export function readSpec(relative: string): Record<string, unknown> {
  const file = path.join(specsDir, relative);
  if (!existsSync(file)) {
    throw new Error(
      `Slack spec file missing: ${file}. It is part of the repository (packages/slack-emulator/spec).`,
    );
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

export type Emu = Awaited<ReturnType<typeof startEmulator>>;

export async function emulator(options: EmulatorOptions = {}): Promise<Emu> {
  return startEmulator({
    rateLimits: { profile: 'off' },
    workspace: { seed: 42, members: 120, channels: 8, days: 20 },
    ...options,
  });
}

/** Calls a method the way @slack/web-api does (form body, Bearer header) and returns status, headers, raw JSON. */
export async function callRaw(
  emu: Emu,
  method: string,
  args: Record<string, unknown> = {},
  token?: string,
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(args))
    form.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  const res = await fetch(`${emu.apiUrl}${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: form.toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

export type Received = { headers: IncomingHttpHeaders; body: string; at: number };

/** A tiny app endpoint that records what the emulator posts and answers with `answer`. */
export async function receiver(
  answer: (
    r: Received,
    n: number,
  ) => { status?: number; body?: string; delayMs?: number; headers?: Record<string, string> } = () => ({}),
  /** 'echo': answer url_verification with its challenge, as a working app does; 'answer': let `answer` do it. */
  verification: 'echo' | 'answer' = 'echo',
): Promise<{ url: string; received: Received[]; close(): Promise<void>; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      const challenge =
        verification === 'echo' && r.body.includes('"url_verification"')
          ? (JSON.parse(r.body) as { challenge?: string }).challenge
          : undefined;
      const a = challenge ? { body: JSON.stringify({ challenge }) } : answer(r, received.length);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
        res.end(a.body ?? '');
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    received,
    server,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function waitFor<T>(fn: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
