import { WebClient, WebClientEvent, type UsersListResponse } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.ts';
import type { Emu } from './helpers.ts';

describe('the official WebClient against the emulator', () => {
  let emu: Emu;
  let client: WebClient;
  beforeAll(async () => {
    emu = await startEmulator({
      workspace: { seed: 3, members: 10_000, channels: 6, days: 10 },
      rateLimits: { profile: 'real', timeScale: 0.01 },
    });
    client = new WebClient(emu.install().botToken, { slackApiUrl: emu.apiUrl });
  });
  afterAll(() => emu.close());

  it('paginates users.list over 10,000 members', async () => {
    const ids = new Set<string>();
    let pages = 0;
    for await (const page of client.paginate('users.list', {
      limit: 1000,
    }) as AsyncIterable<UsersListResponse>) {
      pages++;
      for (const m of page.members ?? []) ids.add(m.id as string);
    }
    const expected = [...emu.truth().members()].length;
    expect(expected).toBeGreaterThan(10_000);
    expect(ids.size).toBe(expected);
    expect(pages).toBe(Math.ceil(expected / 1000));
  });

  it('meets a 429 with Retry-After and retries on its own', async () => {
    emu.setRateLimits({ nonMarketplace: true });
    const channel = emu.truth().channels()[0]?.id as string;
    await client.conversations.join({ channel });
    const limited: number[] = [];
    client.on(WebClientEvent.RATE_LIMITED, (retryAfter: number) => limited.push(retryAfter));
    const first = await client.conversations.history({ channel, limit: 100 });
    expect(first.messages?.length).toBe(15); // non-Marketplace apps: limit max 15
    const started = Date.now();
    const second = await client.conversations.history({ channel, limit: 5 });
    expect(second.ok).toBe(true);
    expect(limited).toEqual([1]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const strict = new WebClient(emu.truth().install()?.botToken, {
      slackApiUrl: emu.apiUrl,
      rejectRateLimitedCalls: true,
    });
    await expect(strict.conversations.history({ channel })).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
      retryAfter: 1,
    });
    emu.setRateLimits({ nonMarketplace: false });
  });

  it('uploads a file through the external upload flow', async () => {
    const channel = emu.truth().channels()[0]?.id as string;
    const content = 'name,score\nada,3\n';
    const result = await client.filesUploadV2({
      channel_id: channel,
      filename: 'scores.csv',
      title: 'Scores',
      content,
      initial_comment: 'Results',
    });
    expect(result.ok).toBe(true);
    const [file] = [...emu.truth().messages({ channel })].filter((m) => m.files).map((m) => m.files?.[0]);
    expect(file).toMatchObject({
      title: 'Scores',
      name: 'scores.csv',
      size: Buffer.byteLength(content),
      channels: [channel],
    });
    const download = await fetch(file?.url_private as string);
    expect(await download.text()).toBe(content);
  });
});
