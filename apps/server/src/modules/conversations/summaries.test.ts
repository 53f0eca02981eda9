import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasInvalidCharacters } from '@flywheel/shared/delivery';
import { bearer, signedInUser } from '../../testing/factories.ts';
import { groundTruth } from '../../testing/ground-truth.ts';
import {
  installThroughOAuth,
  ownerOf,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';

/*
 * Thread summaries with bounded work, through the API against a model on loopback (an OpenAI-compatible server
 * this file runs): one model call per thread version however many ask, one attempt within LLM_TIMEOUT_MS whatever
 * the model does, the answer capped, and each admin's model calls limited per minute.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

type Behaviour = 'answer' | 'hold' | 'hang' | 'stall' | 'huge';
let behaviour: Behaviour = 'answer';
let calls: any[] = [];
let served = 0;
let release: () => void = () => {};
let held = Promise.resolve();
const MAX_CHARS = 500;
const PER_MINUTE = 8; // the first workspace's admin makes 7 calls in this file
const HUGE = `${'a'.repeat(MAX_CHARS - 2)}😀${'👩‍👩‍👧‍👦 family '.repeat(150_000)}`; // ~5 MB of JSON

const completion = (content: string) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'fake',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
  });

/** The model: answers, holds its answer until released, never answers, stalls mid-body, or answers 5 MB. */
const model = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const prompt = (JSON.parse(body).messages as any[]).map((m) => m.content).join('\n');
    calls.push({ url: req.url, prompt });
    const summary = `- Summary ${++served}.`;
    if (behaviour === 'hang') return;
    if (behaviour === 'stall') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"chatcmpl-1","object":"chat.completion","choices":[');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    if (behaviour === 'huge') return res.end(completion(HUGE));
    if (behaviour === 'hold') return void held.then(() => res.end(completion(summary)));
    res.end(completion(summary));
  });
});

let env: SlackTestEnv;
let user: { token: string; userid: string };
let other: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
/** Threads (parent ts and channel) of each workspace, one per scenario. */
const threads = new Map<string, { ts: string; channel: string }[]>();

async function makeThreads(team: string, n: number) {
  const truth = groundTruth(env, team, 'UTC');
  const channel = truth.visible.find((c) => truth.channelMembers.get(c)!.size > 2)!;
  const people = [...truth.channelMembers.get(channel)!].filter((p) => p !== ownerOf(env, team));
  const list = [];
  for (let i = 0; i < n; i++) {
    const parent = env.emu.team(team).postMessage(channel, {
      user: people[0]!,
      text: `Thread ${i}: who brings the projector to meetup ${i}?`,
    });
    env.emu
      .team(team)
      .postMessage(channel, { user: people[1]!, text: `I will, for meetup ${i}.`, thread_ts: parent.ts });
    list.push({ ts: parent.ts, channel });
  }
  threads.set(team, list);
}

beforeAll(async () => {
  await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
  const port = (model.address() as AddressInfo).port;
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 41, members: 12, channels: 2, days: 1 },
        { seed: 42, members: 12, channels: 2, days: 1 },
      ],
    },
    {
      LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
      LLM_MODEL: 'fake',
      LLM_TIMEOUT_MS: '3000',
      SUMMARY_MAX_CHARS: String(MAX_CHARS),
      SUMMARY_MAX_PER_ADMIN_PER_MINUTE: String(PER_MINUTE),
    },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  other = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, other, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  await waitForBackfill(env, other.token, otherTeam);
  await makeThreads(teamId, 5);
  await makeThreads(otherTeam, PER_MINUTE + 1);
  await settleEvents(env);
}, 120_000);
afterAll(async () => {
  release();
  model.closeAllConnections();
  model.close();
  await env.close();
});

const summarize = (team: string, i: number, token = user.token) => {
  const t = threads.get(team)![i]!;
  return env.t.app.inject({
    method: 'POST',
    url: '/api/v0/actions/summarizeThread',
    headers: bearer(token),
    payload: { team_id: team, threadParentTs: t.ts, channel_id: t.channel },
  });
};

function setModel(b: Behaviour) {
  behaviour = b;
  calls = [];
  held = new Promise<void>((r) => (release = r));
}

describe('thread summaries, bounded', () => {
  it('40 requests for the same thread at once make one model call; the thread changing makes one more', async () => {
    setModel('hold');
    const answers = Promise.all(Array.from({ length: 40 }, () => summarize(teamId, 0)));
    // The model answers once it has been asked (requests may still be arriving: they share the call or, once
    // it is answered, the kept summary).
    const deadline = Date.now() + 20_000;
    while (calls.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    release();
    const res = await answers;
    expect(res.map((r) => r.statusCode)).toEqual(Array(40).fill(200));
    expect(calls).toHaveLength(1);
    expect(new Set(res.map((r) => r.json().data.summary))).toEqual(new Set(['- Summary 1.']));
    expect(res[0]!.json().data).toMatchObject({ kind: 'ai', model: 'fake' });

    // Asked again: the kept summary, no call.
    expect((await summarize(teamId, 0)).json().data.summary).toBe('- Summary 1.');
    expect(calls).toHaveLength(1);

    // A new reply: the next request asks the model again, with the reply in the prompt.
    setModel('answer');
    const t = threads.get(teamId)![0]!;
    const truth = groundTruth(env, teamId, 'UTC');
    const someone = [...truth.channelMembers.get(t.channel)!].find((p) => p !== ownerOf(env, teamId))!;
    env.emu
      .team(teamId)
      .postMessage(t.channel, { user: someone, text: 'Projector found, wombat', thread_ts: t.ts });
    await settleEvents(env);
    const changed = await summarize(teamId, 0);
    expect(changed.json().data.summary).toBe('- Summary 2.');
    expect(calls).toHaveLength(1);
    expect(calls[0].prompt).toContain('Projector found, wombat');
  });

  it('a model that never answers: one attempt, then the extractive summary saying the model timed out', async () => {
    setModel('hang');
    const res = await summarize(teamId, 1);
    // One attempt: the openai SDK's own retry would have made it two (and doubled the wait).
    expect(calls).toHaveLength(1);
    expect(res.statusCode).toBe(200);
    const s = res.json().data;
    expect(s.kind).toBe('extractive');
    expect(s.model).toBeNull();
    expect(s.summary).toMatch(/^Extractive summary \(the AI model did not answer within 3 s,/);
    expect(s.summary).toContain('projector');
  });

  it('a model that sends its headers and then stalls: the same one deadline covers the body', async () => {
    setModel('stall');
    const res = await summarize(teamId, 2);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.summary).toMatch(/^Extractive summary \(the AI model did not answer within 3 s,/);
    expect(calls).toHaveLength(1);
    // A fallback is not kept: the model is asked again next time.
    setModel('answer');
    expect((await summarize(teamId, 2)).json().data).toMatchObject({ kind: 'ai', model: 'fake' });
    expect(calls).toHaveLength(1);
  });

  it('a 5 MB answer is cut to SUMMARY_MAX_CHARS between characters, never inside one', async () => {
    setModel('huge');
    const res = await summarize(teamId, 3);
    expect(res.statusCode).toBe(200);
    expect(res.body.length).toBeLessThan(MAX_CHARS * 4);
    const s = res.json().data.summary as string;
    expect(s.length).toBeLessThanOrEqual(MAX_CHARS);
    expect(s.endsWith('…')).toBe(true);
    // The emoji straddles the limit: it is left out whole, not halved into a lone surrogate.
    expect(s).toBe(`${'a'.repeat(MAX_CHARS - 2)}…`);
    expect(hasInvalidCharacters(s)).toBe(false);
  });

  it(`an admin's model calls are limited to ${PER_MINUTE} a minute: then 429 with Retry-After`, async () => {
    setModel('answer');
    for (let i = 0; i < PER_MINUTE; i++)
      expect((await summarize(otherTeam, i, other.token)).statusCode).toBe(200);
    expect(calls).toHaveLength(PER_MINUTE);
    const limited = await summarize(otherTeam, PER_MINUTE, other.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(limited.json().message).toMatch(
      /^Too many thread summaries: at most 8 a minute per admin\. Try again in \d+ s\.$/,
    );
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(calls).toHaveLength(PER_MINUTE);
    // A kept summary costs no call: still answered.
    expect((await summarize(otherTeam, 0, other.token)).statusCode).toBe(200);
    // Another admin has their own minute.
    expect((await summarize(teamId, 4)).statusCode).toBe(200);
    expect(calls).toHaveLength(PER_MINUTE + 1);
  });
});
