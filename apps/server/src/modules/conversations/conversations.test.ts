import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { WebClient } from '@slack/web-api';
import { CONVERSATION_TEXTS, slackPermalink } from '@flywheel/shared/conversations';
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
import { conversationsService, slackWebOrigin } from './service.ts';
import { extractiveSummary, llmClient, threadPrompt } from './summary.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let owner: string;
let people: string[];
let channel: string;
let otherChannel: string;
let parentTs: string;
let botToken: string;

const DAY = 86_400_000;
const get = (url: string, token = user.token) =>
  env.t.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(token) });
const post = (url: string, payload: object, token = user.token) =>
  env.t.app.inject({ method: 'POST', url: `/api/v0${url}`, headers: bearer(token), payload });
const windowOf = (days: number) => {
  const end = new Date(Date.now() + 60_000);
  return `${new Date(end.getTime() - days * DAY).toISOString()}/${end.toISOString()}`;
};
const team = () => env.emu.team(teamId);
const nameOf = (id: string) => {
  const m: any = [...env.emu.truth(teamId).members()].find((x) => x.id === id);
  return String(m.real_name || m.profile?.real_name || m.profile?.display_name);
};

/** The emulator's own view of a thread: live replies and live reactions on the parent. */
function truthOf(ch: string, ts: string) {
  const msgs = [...env.emu.truth(teamId).messages({ channel: ch })] as any[];
  const parent = msgs.find((m) => m.ts === ts);
  const replies = msgs.filter((m) => m.thread_ts === ts && m.ts !== ts && !m.deleted);
  const reactions = (parent?.reactions ?? []).flatMap((r: any) =>
    r.users.map((u: string) => ({ user: u, name: r.name })),
  );
  return { parent, replies, reactions };
}

beforeAll(async () => {
  env = await slackTestEnv({
    workspaces: [
      { seed: 21, members: 30, channels: 3, days: 3 },
      { seed: 22, members: 10, channels: 2, days: 2 },
    ],
  });
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  await waitForBackfill(env, stranger.token, otherTeam);
  owner = ownerOf(env, teamId);
  botToken = env.emu.truth(teamId).install()!.botToken;
  const truth = groundTruth(env, teamId, 'UTC');
  channel = truth.visible.find((c) => truth.channelMembers.get(c)!.size > 3)!;
  otherChannel = groundTruth(env, otherTeam, 'UTC').visible[0]!;
  people = truth.people.filter((p) => !p.left && p.id !== owner).map((p) => p.id);

  // A thread with an edited reply, a deleted reply, a removed reaction and a reaction on a reply.
  const [a, b, c, d, e, f] = people as [string, string, string, string, string, string];
  const parent = team().postMessage(channel, {
    user: a,
    text: `Zebracorn launch checklist for <#${channel}>: who reviews the slides, <@${b}>?`,
  });
  parentTs = parent.ts;
  const reply = (u: string, text: string) =>
    team().postMessage(channel, { user: u, text, thread_ts: parentTs });
  reply(b, 'I can review the slides tomorrow morning.');
  const edited = reply(c, 'The budget sheet is wrong, wombat');
  const gone = reply(d, 'Oops, wrong thread narwhal');
  reply(b, 'Slides reviewed, two typos fixed.');
  team().updateMessage(channel, edited.ts, { text: 'The budget sheet is fixed now, platypus' }, c);
  team().deleteMessage(channel, gone.ts);
  team().react(channel, parentTs, 'tada', e, true);
  team().react(channel, parentTs, 'tada', f, true);
  team().react(channel, parentTs, 'eyes', f, true);
  team().react(channel, parentTs, 'tada', e, false);
  team().react(channel, edited.ts, 'thumbsup', a, true);
  await settleEvents(env);
}, 120_000);
afterAll(() => env.close());

describe('thread detail', () => {
  it("equals the emulator's truth with edits, deleted replies and removed reactions", async () => {
    const truth = truthOf(channel, parentTs);
    expect(truth.replies).toHaveLength(3);
    const res = await get(`/actions/getuniquereplies/${teamId}/${parentTs}?channel_id=${channel}`);
    expect(res.statusCode).toBe(200);
    const r = res.json().data;
    expect(r.total_replies).toBe(truth.replies.length);
    expect(r.unique_replies).toBe(new Set(truth.replies.map((m: any) => m.user)).size);
    expect(r.replies.map((x: any) => x.reply)).toEqual(truth.replies.map((m: any) => m.text));
    expect(r.replies.map((x: any) => x.name)).toEqual(truth.replies.map((m: any) => nameOf(m.user)));
    expect(r.replies.some((x: any) => x.reply.startsWith('Oops'))).toBe(false);

    const rx = (await get(`/actions/getuniquereactions/${teamId}/${parentTs}?channel_id=${channel}`)).json()
      .data;
    expect(rx.total_reactions).toBe(truth.reactions.length);
    expect(rx.total_reactions).toBe(2);
    expect(rx.unique_reactions).toBe(new Set(truth.reactions.map((x: any) => x.user)).size);
    expect(rx.reactions.map((x: any) => `${x.user_id}:${x.reaction}`).sort()).toEqual(
      truth.reactions.map((x: any) => `${x.user}:${x.name}`).sort(),
    );

    // Without channel_id the ts alone finds it; a reply's ts finds its thread.
    const byTs = (await get(`/actions/getuniquereplies/${teamId}/${parentTs}`)).json().data;
    expect(byTs.total_replies).toBe(3);
    const byReply = (await get(`/actions/getuniquereplies/${teamId}/${truth.replies[0].ts}`)).json().data;
    expect(byReply.total_replies).toBe(3);
  });

  it('every listed thread of the workspace counts what the emulator holds', async () => {
    const res = await get(`/actions/getthreads/${teamId}/${windowOf(30)}/workspace?limit=200`);
    expect(res.statusCode).toBe(200);
    const threads = res.json().data as any[];
    expect(threads.length).toBeGreaterThan(5);
    const visible = new Set(groundTruth(env, teamId, 'UTC').visible);
    const live = [...env.emu.truth(teamId).messages()].filter(
      (m: any) =>
        visible.has(m.channel) &&
        !m.deleted &&
        (!m.thread_ts || m.thread_ts === m.ts) &&
        (!m.subtype || ['thread_broadcast', 'file_share', 'me_message', 'bot_message'].includes(m.subtype)),
    );
    // The newest 200 top-level messages, newest first.
    const expected = live.sort((x: any, y: any) => Number(y.ts) - Number(x.ts)).slice(0, 200);
    expect(threads.map((t) => t.ts)).toEqual(expected.map((m: any) => m.ts));
    for (const t of threads) {
      const truth = truthOf(t.channel_id, t.ts);
      expect({ ts: t.ts, replies: t.replies, reactions: t.reactions }).toEqual({
        ts: t.ts,
        replies: truth.replies.length,
        reactions: truth.reactions.length,
      });
    }
    const mine = threads.find((t) => t.ts === parentTs);
    expect(mine).toMatchObject({
      channel_id: channel,
      sender: nameOf(people[0]!),
      replies: 3,
      reactions: 2,
      is_pinned: false,
    });
    // Mentions readable: the channel and the member by name, no tokens left.
    expect(mine.content).toContain(`@${nameOf(people[1]!)}`);
    expect(mine.content).not.toMatch(/<[@#]/);
  });

  it("archive links are Slack's permalinks: chat.getPermalink agrees, for a thread and a reply", async () => {
    const slack = new WebClient(botToken, { slackApiUrl: env.emu.apiUrl });
    const threads = (await get(`/actions/getthreads/${teamId}/${windowOf(1)}/${channel}`)).json()
      .data as any[];
    const mine = threads.find((t) => t.ts === parentTs);
    const official = await slack.chat.getPermalink({ channel, message_ts: parentTs });
    expect(mine.permalink).toBe(official.permalink);
    expect(mine.permalink).toMatch(new RegExp(`/archives/${channel}/p${parentTs.replace('.', '')}$`));

    const hits = (await get(`/actions/searchthreads/${teamId}?q=typos`)).json().data as any[];
    expect(hits).toHaveLength(1);
    const replyLink = await slack.chat.getPermalink({ channel, message_ts: hits[0].ts });
    expect(hits[0].permalink).toBe(replyLink.permalink);
    expect(hits[0]).toMatchObject({ is_thread: false, thread_ts: parentTs, channel_id: channel });

    // On Slack itself the origin is the workspace's domain.
    expect(slackWebOrigin('https://slack.com/api/', 'acme')).toBe('https://acme.slack.com');
    expect(slackPermalink('https://acme.slack.com', 'C1H9RESGA', '1358546515.000008')).toBe(
      'https://acme.slack.com/archives/C1H9RESGA/p1358546515000008',
    );
    expect(slackPermalink('https://acme.slack.com', 'C1', '1358546515.000010', '1358546515.000008')).toBe(
      'https://acme.slack.com/archives/C1/p1358546515000010?thread_ts=1358546515.000008&cid=C1',
    );
  });

  it('pages newest first without overlap, in a channel', async () => {
    const w = windowOf(30);
    const all = (await get(`/actions/getthreads/${teamId}/${w}/${channel}?limit=200`)).json().data as any[];
    const first = (await get(`/actions/getthreads/${teamId}/${w}/${channel}?limit=3`)).json();
    expect(first.data).toHaveLength(3);
    expect(first.next_cursor).toBeTruthy();
    const second = (
      await get(`/actions/getthreads/${teamId}/${w}/${channel}?limit=3&cursor=${first.next_cursor}`)
    ).json();
    expect([...first.data, ...second.data].map((t: any) => t.ts)).toEqual(all.slice(0, 6).map((t) => t.ts));
    expect(all.every((t) => t.channel_id === channel)).toBe(true);
  });
});

describe('threads sorted on the server', () => {
  /** Every page of a listing in one order, following next_cursor; and how many pages it took. */
  async function pages(path: string) {
    const rows: any[] = [];
    let cursor: string | null = null;
    let count = 0;
    do {
      const res = await get(`${path}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      rows.push(...res.json().data);
      cursor = res.json().next_cursor;
      count++;
    } while (cursor && count < 100);
    return { rows, count };
  }
  /** The order the server promises: the key, then newest first (time, ts, channel) on ties, all reversed for asc. */
  const ordered = (rows: any[], key: (t: any) => number | string, direction: 'asc' | 'desc') => {
    const sign = direction === 'desc' ? -1 : 1;
    const cmp = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);
    return [...rows].sort(
      (a, b) =>
        sign *
        (cmp(key(a), key(b)) ||
          cmp(a.posted_at, b.posted_at) ||
          cmp(a.ts, b.ts) ||
          cmp(a.channel_id, b.channel_id)),
    );
  };
  const ids = (rows: any[]) => rows.map((t) => `${t.channel_id}/${t.ts}`);

  it('by replies over the whole window, page after page in the right order (ties newest first)', async () => {
    const base = `/actions/getthreads/${teamId}/${windowOf(30)}/workspace`;
    const all = (await pages(`${base}?limit=200`)).rows;
    // Enough threads for several pages, with different reply counts and ties among them.
    expect(all.length).toBeGreaterThan(12);
    const counts = all.map((t) => t.replies);
    expect(new Set(counts).size).toBeGreaterThan(1);
    expect(counts.length - new Set(counts).size).toBeGreaterThan(0);
    const expected = ordered(all, (t) => t.replies, 'desc');
    // The 5 most replied are not the 5 newest: sorting the newest page alone would not find them.
    const newest = new Set(ids(all.slice(0, 5)));
    expect(ids(expected.slice(0, 5)).filter((id) => !newest.has(id)).length).toBeGreaterThan(0);

    const byReplies = await pages(`${base}?limit=5&sort=replies&direction=desc`);
    expect(byReplies.count).toBeGreaterThan(2);
    expect(ids(byReplies.rows)).toEqual(ids(expected));
    expect(byReplies.rows.map((t) => t.replies)).toEqual(expected.map((t) => t.replies));

    // Fewest reactions first, and senders by name, in a channel: the same across pages.
    const reactions = await pages(`${base}?limit=4&sort=reactions&direction=asc`);
    expect(ids(reactions.rows)).toEqual(ids(ordered(all, (t) => t.reactions, 'asc')));
    const inChannel = all.filter((t) => t.channel_id === channel);
    const bySender = await pages(
      `/actions/getthreads/${teamId}/${windowOf(30)}/${channel}?limit=3&sort=sender&direction=asc`,
    );
    expect(bySender.count).toBeGreaterThan(1);
    expect(ids(bySender.rows)).toEqual(ids(ordered(inChannel, (t) => t.sender.toLowerCase(), 'asc')));
    // Oldest first is time reversed.
    const oldest = await pages(`${base}?limit=7&sort=time&direction=asc`);
    expect(ids(oldest.rows)).toEqual(ids(all).reverse());
  });

  it('refuses a bad sort, a bad direction, and a cursor of another order (400 naming the field)', async () => {
    const base = `/actions/getthreads/${teamId}/${windowOf(30)}/workspace`;
    for (const [query, message] of [
      ['sort=likes', 'sort must be one of time, sender, channel, replies, reactions'],
      ['sort=REPLIES', 'sort must be one of'],
      ['direction=up', "direction must be 'asc' or 'desc'"],
    ] as const) {
      const res = await get(`${base}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const newest = (await get(`${base}?limit=2`)).json().next_cursor;
    const other = await get(`${base}?limit=2&sort=replies&cursor=${newest}`);
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toContain('cursor must be the next_cursor of a previous answer');
    const byReplies = (await get(`${base}?limit=2&sort=replies`)).json().next_cursor;
    expect((await get(`${base}?limit=2&sort=replies&direction=asc&cursor=${byReplies}`)).statusCode).toBe(
      400,
    );
    expect((await get(`${base}?limit=2&sort=replies&cursor=${byReplies}`)).statusCode).toBe(200);
  });
});

describe('search', () => {
  it('finds a thread by a word or its prefix, in the workspace or a channel', async () => {
    for (const q of ['zebracorn', 'Zebrac', 'zebracorn checklist']) {
      const res = await get(`/actions/searchthreads/${teamId}?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((h: any) => h.ts)).toEqual([parentTs]);
    }
    const hit = (await get(`/actions/searchthreads/${teamId}?q=zebracorn&channel_id=${channel}`)).json()
      .data[0];
    expect(hit).toMatchObject({ is_thread: true, ts: parentTs, user_name: nameOf(people[0]!) });
    expect(hit.objectID).toBe(`${channel}-${parentTs}`);
    // The edited reply is found by its new text only, the deleted one not at all.
    expect((await get(`/actions/searchthreads/${teamId}?q=platypus`)).json().data).toHaveLength(1);
    expect((await get(`/actions/searchthreads/${teamId}?q=wombat`)).json().data).toHaveLength(0);
    expect((await get(`/actions/searchthreads/${teamId}?q=narwhal`)).json().data).toHaveLength(0);
    // Nothing found: an empty list (the page says 'No results found').
    expect((await get(`/actions/searchthreads/${teamId}?q=the`)).json().data).toEqual([]);
    expect((await get(`/actions/searchthreads/${teamId}?q=qwxzzy`)).json().data).toEqual([]);
  });

  it('past the newest messages checked one by one, the GIN index finds the same messages in the same order', async () => {
    const full = (await get(`/actions/searchthreads/${teamId}?q=the%20slides&limit=200`)).json()
      .data as any[];
    const words = (await get(`/actions/searchthreads/${teamId}?q=review&limit=200`)).json().data as any[];
    expect(full.length).toBeGreaterThan(0);
    expect(words.length).toBeGreaterThan(2);
    const twoStep = conversationsService({
      db: env.t.ctx.database.db,
      delivery: env.t.ctx.services.delivery,
      slackApiUrl: () => env.emu.apiUrl,
      llm: null,
      logger: env.t.ctx.logger,
      recentScan: 2,
    });
    const key = (h: any) => `${h.channel_id}-${h.ts}`;
    expect((await twoStep.search(teamId, 'the slides', null, 200)).map(key)).toEqual(full.map(key));
    expect((await twoStep.search(teamId, 'review', null, 200)).map(key)).toEqual(words.map(key));
    expect((await twoStep.search(teamId, 'review', null, 2)).map(key)).toEqual(words.slice(0, 2).map(key));
    expect(await twoStep.search(teamId, 'qwxzzy', null, 50)).toEqual([]);
    const mentions = await twoStep.mentions(teamId, { limit: 50 });
    const direct = (await get(`/mentions/getmentions/${teamId}`)).json();
    expect(mentions.data.map((m) => m.mention_id)).toEqual(direct.data.map((m: any) => m.mention_id));
    // Time slices of minutes to a day (the workspace's messages span days): the same messages, in order,
    // whether a page ends inside a slice or takes several.
    const sliced = conversationsService({
      db: env.t.ctx.database.db,
      delivery: env.t.ctx.services.delivery,
      slackApiUrl: () => env.emu.apiUrl,
      llm: null,
      logger: env.t.ctx.logger,
      recentScan: 2,
      slicesDays: [0.005, 0.05, 0.3, 1],
    });
    expect((await sliced.search(teamId, 'the slides', null, 200)).map(key)).toEqual(full.map(key));
    expect((await sliced.search(teamId, 'review', null, 200)).map(key)).toEqual(words.map(key));
    for (const n of [1, 3, 5])
      expect((await sliced.search(teamId, 'review', null, n)).map(key)).toEqual(words.slice(0, n).map(key));
    expect(await sliced.search(teamId, 'qwxzzy', null, 50)).toEqual([]);
    // A common word of the history found over more than the 0.3-day slice, so slices cut through its matches.
    // Which of the commonest words qualifies depends on the time of day the emulator's history was made at: the
    // first of the twenty commonest that does.
    const common = (
      (await env.t.ctx.database.db.execute(
        sql`select word from ts_stat(${`select to_tsvector('english', text) from slack_messages
          where team_id = '${teamId}' and deleted_at is null`}) where length(word) >= 4 order by ndoc desc, word limit 20`,
      )) as unknown as { rows: { word: string }[] }
    ).rows.map((r) => r.word);
    let word = '';
    let spread: any[] = [];
    for (const candidate of common) {
      const hits = (await get(`/actions/searchthreads/${teamId}?q=${candidate}&limit=200`)).json()
        .data as any[];
      const times = hits.map((h) => h.posted_at as number);
      if (hits.length >= 3 && Math.max(...times) - Math.min(...times) > 0.3 * DAY) {
        [word, spread] = [candidate, hits];
        break;
      }
    }
    expect(word).not.toBe('');
    for (const n of [1, 3, 10, 30, 200])
      expect((await sliced.search(teamId, word, null, n)).map(key)).toEqual(spread.slice(0, n).map(key));
    const slicedMentions = await sliced.mentions(teamId, { limit: 50 });
    expect(slicedMentions.data.map((m) => m.mention_id)).toEqual(direct.data.map((m: any) => m.mention_id));
  });

  it('refuses an empty query, another workspace and no token', async () => {
    const empty = await get(`/actions/searchthreads/${teamId}?q=%20`);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Type a word to search for');
    expect((await get(`/actions/searchthreads/${teamId}?q=zebracorn`, stranger.token)).statusCode).toBe(403);
    const anonymous = await env.t.app.inject({
      method: 'GET',
      url: `/api/v0/actions/searchthreads/${teamId}?q=zebracorn`,
    });
    expect(anonymous.statusCode).toBe(401);
    // The other workspace's search never sees this one's messages.
    const theirs = await get(`/actions/searchthreads/${otherTeam}?q=zebracorn`, stranger.token);
    expect(theirs.json().data).toEqual([]);
  });

  it('/auth/algoliatoken says search is built in', async () => {
    const res = await post('/auth/algoliatoken', { team_id: teamId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ algoliaToken: null, message: CONVERSATION_TEXTS.searchBuiltIn });
    expect((await post('/auth/algoliatoken', { team_id: teamId }, stranger.token)).statusCode).toBe(403);
  });
});

describe('threads input', () => {
  it.each([
    [
      'start after end',
      `${new Date().toISOString()}/${new Date(Date.now() - DAY).toISOString()}/workspace`,
      CONVERSATION_TEXTS.startAfterEnd,
    ],
    [
      'a start in the future',
      `${new Date(Date.now() + 2 * DAY).toISOString()}/${new Date(Date.now() + 3 * DAY).toISOString()}/workspace`,
      CONVERSATION_TEXTS.startInFuture,
    ],
    ['over 366 days', `2020-01-01T00:00:00Z/2022-01-01T00:00:00Z/workspace`, CONVERSATION_TEXTS.rangeTooLong],
    ['a bad date', `yesterday/${new Date().toISOString()}/workspace`, 'start must be a date-time'],
    ['a bad channel', `${windowOf(7)}/general`, 'channel must be workspace or a Slack channel id'],
    ['a bad cursor', `${windowOf(7)}/workspace?cursor=abc`, 'cursor must be the next_cursor'],
    ['a bad limit', `${windowOf(7)}/workspace?limit=5000`, 'limit must be at most 200'],
  ])('400 for %s', async (_, path, message) => {
    const res = await get(`/actions/getthreads/${teamId}/${path}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('404 for a thread that is not there, 403 for another workspace', async () => {
    const missing = await get(`/actions/getuniquereplies/${teamId}/1500000000.000100?channel_id=${channel}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(CONVERSATION_TEXTS.noSuchThread);
    const theirs = await get(`/actions/getuniquereactions/${teamId}/${parentTs}`, stranger.token);
    expect(theirs.statusCode).toBe(403);
    const bad = await get(`/actions/getuniquereplies/${teamId}/yesterday`);
    expect(bad.statusCode).toBe(400);
  });
});

describe('pins', () => {
  it('pin and unpin through the delivery engine show on the thread (Slack pin events)', async () => {
    const pinned = async () => {
      await settleEvents(env);
      const list = (await get(`/actions/getthreads/${teamId}/${windowOf(1)}/${channel}`)).json()
        .data as any[];
      return list.find((t) => t.ts === parentTs).is_pinned;
    };
    const body = { team_id: teamId, channel_id: channel, ts: parentTs };
    expect((await post('/quickaction/pinpost', body)).json().message).toBe('Message pinned');
    expect(await pinned()).toBe(true);
    expect((await post('/quickaction/unpinpost', body)).json().message).toBe('Message unpinned');
    expect(await pinned()).toBe(false);
  });
});

describe('mentions', () => {
  let mentionTs: string;
  let inThreadTs: string;
  beforeAll(async () => {
    const bot = env.emu.truth(teamId).install()!.botUserId;
    mentionTs = team().postMessage(channel, {
      user: people[2]!,
      text: `<@${owner}> can you approve the quokka budget?`,
    }).ts;
    inThreadTs = team().postMessage(channel, {
      user: people[3]!,
      text: `<@${bot}> remind us about the quokka retro`,
      thread_ts: parentTs,
    }).ts;
    team().postMessage(channel, {
      user: people[4]!,
      text: `<@${people[5]}> not an admin, not listed quokka`,
    });
    await settleEvents(env);
  });

  const mentions = async (q = '') => {
    const res = await get(`/mentions/getmentions/${teamId}${q}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('lists messages and threads mentioning the admins or the bot, with filters', async () => {
    const all = await mentions('?q=quokka');
    expect(all.data.map((m: any) => m.ts).sort()).toEqual([mentionTs, inThreadTs].sort());
    const top = all.data.find((m: any) => m.ts === mentionTs);
    expect(top).toMatchObject({
      is_thread: true,
      seen: false,
      channel_id: channel,
      user_id: people[2],
      mentioned: [nameOf(owner)],
      mention_id: `${channel}-${mentionTs}`,
    });
    expect(top.content).toBe(`@${nameOf(owner)} can you approve the quokka budget?`);
    const inThread = all.data.find((m: any) => m.ts === inThreadTs);
    expect(inThread).toMatchObject({ is_thread: false, thread_ts: parentTs });
    expect((await mentions(`?q=quokka&user_id=${people[3]}`)).data.map((m: any) => m.ts)).toEqual([
      inThreadTs,
    ]);
    expect((await mentions(`?q=quokka&channel_id=${otherChannel}`)).data).toEqual([]);
    const everything = await mentions();
    expect(everything.users.map((u: any) => u.value)).toContain(people[2]);
    expect(everything.channels.map((c: any) => c.value)).toContain(channel);
  });

  it("a reply through the delivery engine arrives in Slack and the mention shows 'Seen'", async () => {
    const res = await post('/mentions/replytomention', {
      team_id: teamId,
      sender: 'bot',
      text: 'Approved, thanks!',
      ts: mentionTs,
      channel_id: channel,
      images: [],
      mention_id: `${channel}-${mentionTs}`,
    });
    expect(res.statusCode).toBe(202);
    const top = (await mentions('?q=quokka')).data.find((m: any) => m.ts === mentionTs);
    expect(top.seen).toBe(true);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const replies = truthOf(channel, mentionTs).replies;
      if (replies.some((m: any) => m.text === 'Approved, thanks!')) break;
      if (Date.now() > deadline) throw new Error('the reply never reached Slack');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it("a reaction marks it 'Seen'; Slack's 429 answers 429 and leaves it unseen", async () => {
    const body = {
      team_id: teamId,
      channel_id: channel,
      ts: inThreadTs,
      name: 'eyes',
      mention_id: `${channel}-${inThreadTs}`,
    };
    env.emu.queueFault({ kind: 'ratelimited', method: 'reactions.add', retryAfter: 1 });
    const limited = await post('/mentions/addreaction', body);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect((await mentions('?q=quokka')).data.find((m: any) => m.ts === inThreadTs).seen).toBe(false);
    await new Promise((r) => setTimeout(r, 1000));
    const ok = await post('/mentions/addreaction', body);
    expect(ok.statusCode).toBe(200);
    expect((await mentions('?q=quokka')).data.find((m: any) => m.ts === inThreadTs).seen).toBe(true);
    expect(truthOf(channel, inThreadTs).parent.reactions.map((r: any) => r.name)).toContain('eyes');
  });

  it('refuses a reply without text, to an unknown channel, or in another workspace', async () => {
    const base = { team_id: teamId, sender: 'bot', ts: mentionTs, channel_id: channel, images: [] };
    const empty = await post('/mentions/replytomention', { ...base, text: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Please enter some text!');
    const unknown = await post('/mentions/replytomention', { ...base, text: 'hi', channel_id: 'C0NOTHERE' });
    expect(unknown.statusCode).toBe(400);
    const theirs = await post('/mentions/replytomention', { ...base, text: 'hi' }, stranger.token);
    expect(theirs.statusCode).toBe(403);
  });
});

describe('summaries', () => {
  it('without a model: an extractive summary that says so, with names and the open question', async () => {
    const res = await post('/actions/summarizeThread', {
      team_id: teamId,
      threadParentTs: parentTs,
      channel_id: channel,
    });
    expect(res.statusCode).toBe(200);
    const s = res.json().data;
    expect(s.kind).toBe('extractive');
    expect(s.model).toBeNull();
    expect(s.summary).toMatch(/^Extractive summary/);
    expect(s.summary).toContain(nameOf(people[0]!));
    expect(s.summary).toContain('Slides reviewed');
    expect(s.summary).not.toContain('narwhal');
    const bad = await post('/actions/summarizeThread', { team_id: teamId, threadParentTs: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('threadParentTs must be a Slack message timestamp');
    expect(
      (await post('/actions/summarizeThread', { team_id: teamId, threadParentTs: parentTs }, stranger.token))
        .statusCode,
    ).toBe(403);
  });

  it('extractive: open questions are those nobody else answered after', () => {
    const s = extractiveSummary({
      channelName: 'general',
      lines: [
        { name: 'Ada', text: 'Should we move the meetup to Friday?' },
        { name: 'Bob', text: 'Friday works for the meetup.' },
        { name: 'Cy', text: 'Who brings the projector for the meetup?' },
      ],
    });
    expect(s).toContain('Open questions:\n- Cy: "Who brings the projector for the meetup?"');
    expect(s).not.toContain('- Ada: "Should we move');
    expect(s).toContain('Ada started it in #general; 2 replies from 2 people (Bob, Cy).');
  });

  it('extractive: replies and repliers are counted and worded properly', () => {
    const one = (lines: { name: string; text: string }[]) =>
      extractiveSummary({ channelName: 'general', lines }).split('\n')[1];
    expect(one([{ name: 'Ada', text: 'Anyone around?' }])).toBe(
      'Ada started it in #general; no replies yet.',
    );
    expect(
      one([
        { name: 'Ada', text: 'Anyone around?' },
        { name: 'Bob', text: 'Here.' },
      ]),
    ).toBe('Ada started it in #general; 1 reply from 1 person (Bob).');
    expect(
      one([
        { name: 'Ada', text: 'Anyone around?' },
        { name: 'Bob', text: 'Here.' },
        { name: 'Ada', text: 'Great.' },
        { name: 'Bob', text: 'Sure.' },
      ]),
    ).toBe('Ada started it in #general; 3 replies from 2 people (Bob, Ada).');
    expect(
      threadPrompt({
        channelName: 'general',
        lines: [
          { name: 'Ada', text: 'Hi' },
          { name: 'Bob', text: 'Yo' },
        ],
      }),
    ).toMatch(/^Thread in #general, 1 reply\./);
  });

  it('with a model: asks the OpenAI-compatible endpoint with the thread and readable names', async () => {
    const seen: any[] = [];
    let fail = false;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
        if (fail) {
          res.writeHead(500, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { message: 'model overloaded' } }));
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1,
            model: 'tiny-test',
            choices: [
              {
                index: 0,
                finish_reason: 'stop',
                message: { role: 'assistant', content: '- Slides reviewed by Bob.' },
              },
            ],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const service = conversationsService({
        db: env.t.ctx.database.db,
        delivery: env.t.ctx.services.delivery,
        slackApiUrl: () => env.emu.apiUrl,
        llm: llmClient({
          baseUrl: `http://127.0.0.1:${port}/v1`,
          apiKey: 'sk-test',
          model: 'tiny-test',
          timeoutMs: 5000,
        }),
        logger: env.t.ctx.logger,
      });
      const s = await service.summarize(teamId, parentTs, channel);
      expect(s).toEqual({ summary: '- Slides reviewed by Bob.', kind: 'ai', model: 'tiny-test' });
      expect(seen[0].url).toBe('/v1/chat/completions');
      expect(seen[0].auth).toBe('Bearer sk-test');
      expect(seen[0].body.model).toBe('tiny-test');
      const prompt = seen[0].body.messages.map((m: any) => m.content).join('\n');
      expect(prompt).toContain(`${nameOf(people[1]!)}: Slides reviewed, two typos fixed.`);
      expect(prompt).toContain('The budget sheet is fixed now, platypus');
      expect(prompt).not.toContain('narwhal');
      expect(prompt).not.toMatch(/<@U/);

      // The model failing now: the summary kept for this thread still answers, without asking it.
      fail = true;
      expect(await service.summarize(teamId, parentTs, channel)).toEqual(s);
      expect(seen).toHaveLength(1);
      // A process that has none kept falls back to the extractive summary, and says so.
      const fresh = conversationsService({
        db: env.t.ctx.database.db,
        delivery: env.t.ctx.services.delivery,
        slackApiUrl: () => env.emu.apiUrl,
        llm: llmClient({
          baseUrl: `http://127.0.0.1:${port}/v1`,
          apiKey: 'sk-test',
          model: 'tiny-test',
          timeoutMs: 5000,
        }),
        logger: env.t.ctx.logger,
      });
      const fallback = await fresh.summarize(teamId, parentTs, channel);
      expect(seen).toHaveLength(2);
      expect(fallback.kind).toBe('extractive');
      expect(fallback.summary).toMatch(/^Extractive summary \(the AI model did not answer, so/);
    } finally {
      server.close();
    }
  });
});
