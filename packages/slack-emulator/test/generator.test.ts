import { WebClient, type ConversationsHistoryResponse } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { generateDay, generateWorkspace, startEmulator, type SlackMessage } from '../src/index.ts';

const spec = { seed: 11, members: 300, channels: 12, days: 60, endTime: 1_760_000_000 };
const allMessages = (ws: ReturnType<typeof generateWorkspace>): SlackMessage[] =>
  ws.channels.flatMap((ch) => Array.from({ length: ws.spec.days }, (_, d) => generateDay(ws, ch, d)).flat());

describe('workspace generator', () => {
  it('is deterministic from (seed, size) and changes with the seed', () => {
    const a = generateWorkspace(spec);
    const b = generateWorkspace(spec);
    expect(b.members).toEqual(a.members);
    expect(allMessages(b)).toEqual(allMessages(a));
    const c = generateWorkspace({ ...spec, seed: 12 });
    expect(c.members.map((m) => m.email)).not.toEqual(a.members.map((m) => m.email));
  });

  it('makes a realistic shape', () => {
    const ws = generateWorkspace(spec);
    const msgs = allMessages(ws);
    const human = msgs.filter((m) => !m.subtype);
    expect(human.length).toBeGreaterThan(spec.members * spec.days * 0.3);
    // ts: Slack format, unique per channel, ending at the configured end time
    for (const ch of ws.channels) {
      const ts = Array.from({ length: spec.days }, (_, d) => generateDay(ws, ch, d))
        .flat()
        .map((m) => m.ts);
      expect(new Set(ts).size).toBe(ts.length);
      expect([...ts].sort()).toEqual(ts);
    }
    expect(msgs.every((m) => /^\d{10}\.\d{6}$/.test(m.ts) && Number(m.ts) <= spec.endTime + 1)).toBe(true);
    expect(Math.max(...msgs.map((m) => Number(m.ts)))).toBeGreaterThan(spec.endTime - 86400);
    // threads, reactions, edits, bot messages, joins and leaves
    const replies = human.filter((m) => m.thread_ts && m.thread_ts !== m.ts);
    expect(replies.length / human.length).toBeGreaterThan(0.1);
    expect(human.filter((m) => m.reactions).length / human.length).toBeGreaterThan(0.15);
    expect(human.some((m) => m.edited)).toBe(true);
    for (const subtype of ['bot_message', 'channel_join', 'channel_leave'])
      expect(msgs.some((m) => m.subtype === subtype)).toBe(true);
    // heavy tail: the busiest 10% of members write well over a third of messages
    const per = new Map<string, number>();
    for (const m of human) per.set(m.user as string, (per.get(m.user as string) ?? 0) + 1);
    const sorted = [...per.values()].sort((x, y) => y - x);
    const top = sorted.slice(0, Math.ceil(spec.members / 10)).reduce((s, n) => s + n, 0);
    expect(top / human.length).toBeGreaterThan(0.35);
    // weekly rhythm: weekdays busier than weekends
    const byDow = [0, 0, 0, 0, 0, 0, 0];
    for (const m of human) byDow[new Date((Number(m.ts) - 5 * 3600) * 1000).getUTCDay()]! += 1;
    expect(Math.min(...byDow.slice(1, 6))).toBeGreaterThan(Math.max(byDow[0]!, byDow[6]!));
    // people: a few admins, one primary owner, unique e-mails, some joined during the window, a few deactivated
    expect(ws.members.filter((m) => m.isPrimaryOwner)).toHaveLength(1);
    expect(ws.members.filter((m) => m.isAdmin).length).toBeGreaterThanOrEqual(2);
    expect(new Set(ws.members.map((m) => m.email)).size).toBe(spec.members);
    expect(ws.members.some((m) => m.joinedAt > ws.startTime)).toBe(true);
    expect(ws.members.some((m) => m.deletedAt > 0)).toBe(true);
  });

  it('streams large workspaces: 50,000 members without generating messages up front', () => {
    const before = process.memoryUsage().heapUsed;
    const ws = generateWorkspace({
      seed: 5,
      members: 50_000,
      channels: 50,
      days: 365,
      messages: 5_000_000,
      endTime: spec.endTime,
    });
    expect(ws.members).toHaveLength(50_000);
    const day = generateDay(ws, ws.channels[0]!, 200);
    expect(day.length).toBeGreaterThan(10);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(300 * 1024 * 1024);
  });
});

describe('ground truth equals what the Web API serves', () => {
  it('history pages (regenerated on demand) + live writes match the truth stream', async () => {
    const emu = await startEmulator({
      workspace: { seed: 9, members: 80, channels: 5, days: 40 },
      rateLimits: { profile: 'off' },
    });
    try {
      const client = new WebClient(emu.install().botToken, { slackApiUrl: emu.apiUrl });
      const truth = emu.truth();
      const channel = truth.channels()[1]?.id as string;
      await client.conversations.join({ channel });
      const posted = await client.chat.postMessage({ channel, text: 'live one' });
      await client.chat
        .postMessage({ channel, text: 'to delete' })
        .then((r) => client.chat.delete({ channel, ts: r.ts as string }));
      const seen: string[] = [];
      for await (const page of client.paginate('conversations.history', {
        channel,
        limit: 100,
      }) as AsyncIterable<ConversationsHistoryResponse>) {
        for (const m of page.messages ?? []) seen.push(m.ts as string);
      }
      const expected = [...truth.messages({ channel })]
        .filter((m) => !m.deleted && (!m.thread_ts || m.thread_ts === m.ts))
        .map((m) => m.ts);
      expect(seen.length).toBeGreaterThan(100);
      expect([...seen].reverse()).toEqual(expected);
      expect(seen[0]).toBe(posted.ts);
      const deleted = [...truth.messages({ channel })].filter((m) => m.deleted);
      expect(deleted.map((m) => m.text)).toEqual(['to delete']);
      const ndjson = await (
        await fetch(`${emu.url}/_admin/teams/${truth.team.id}/messages?channel=${channel}`)
      ).text();
      expect(ndjson.trim().split('\n')).toHaveLength([...truth.messages({ channel })].length);
      const members = await (
        await fetch(`${emu.url}/_admin/teams/${truth.team.id}/members?format=json`)
      ).json();
      expect(members).toHaveLength([...truth.members()].length);
    } finally {
      await emu.close();
    }
  });

  it('live activity posts, replies and reacts as members and is recorded', async () => {
    const emu = await startEmulator({
      workspace: { seed: 4, members: 60, channels: 4, days: 10 },
      live: { intervalMs: 20, actionsPerTick: 3 },
    });
    try {
      await new Promise((r) => setTimeout(r, 300));
      emu.stopLive();
      const live = [...emu.truth().messages()].filter((m) => m.origin === 'live');
      expect(live.length).toBeGreaterThan(5);
    } finally {
      await emu.close();
    }
  });
});
