import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { POLL_ADD_ACTION, POLL_TEXTS, POLL_VOTE_ACTION } from '@flywheel/shared/polls';
import { pollVoterKey } from '../../lib/secrets-key.ts';
import { buildTestApp, testDbKind } from '../../testing/build-test-app.ts';
import { createLogger } from '../../lib/logger.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  deliverInteractivity,
  drainDeliveries as drainAll,
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { DELIVERY_EVENT_TYPE } from '../delivery/engine.ts';
import { pollsService, type PollJobs } from './service.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/*
 * Button polls, voted on in the emulator as Slack's client would (a member presses a button in the posted
 * message: signed block_actions to /slack/interactivity), counted against the test's own tally of what the
 * members did.
 */

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let channel: string;
/** People of the workspace who are in the channel (they see the poll and its ephemeral notices). */
let voters: string[];
let foreign: string;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 41, members: 30, channels: 3, days: 2 },
        { seed: 42, members: 8, channels: 2, days: 2 },
      ],
    },
    { DELIVERY_RETRY_BASE_MS: '20' },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  const all = [...env.emu.truth(teamId).members()] as any[];
  const people = new Set(
    all
      .filter((m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
      .map((m) => m.id as string),
  );
  const team = env.emu.team(teamId);
  const chans = (env.emu.truth(teamId).channels() as any[]).filter(
    (c) => !c.is_private && !c.is_im && !c.is_archived,
  );
  // The channel with the most people in it.
  const inChannel = (id: string) => team.channels.members(id).filter((m: string) => people.has(m));
  channel = chans.sort((a, b) => inChannel(b.id).length - inChannel(a.id).length)[0].id;
  voters = inChannel(channel);
  expect(voters.length).toBeGreaterThanOrEqual(8);
  foreign = ([...env.emu.truth(otherTeam).members()] as any[]).find((m) => !m.is_bot && !m.deleted).id;
}, 120_000);
afterAll(() => env.close());

const call = (method: 'POST' | 'DELETE' | 'GET', url: string, payload?: object, token = user.token) =>
  env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), payload });
const db = () => env.t.ctx.database.db;
const rows = async (q: ReturnType<typeof sql>) => ((await db().execute(q)) as any).rows as any[];

const OPTIONS = [{ value: 'Pizza', emoji: '🍕' }, { value: 'Sushi' }, { value: 'Tacos' }];
const body = (over: object = {}) => ({
  team_id: teamId,
  channel_ids: [channel],
  poll_question: 'Lunch on Friday?',
  options: OPTIONS,
  sender: 'bot',
  type: 'instant',
  images: [],
  voting: 'buttons',
  ...over,
});

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The poll's message in Slack, as the emulator holds it now. */
function slackMessage(receiptId: number): any {
  return ([...env.emu.truth(teamId).messages({ channel })] as any[]).find(
    (m) => m.metadata?.event_type === DELIVERY_EVENT_TYPE && m.metadata.event_payload.receipt === receiptId,
  );
}
const buttonsOf = (m: any): any[] =>
  (m.blocks ?? []).filter((b: any) => b.type === 'actions').flatMap((b: any) => b.elements);

async function createPoll(over: object = {}) {
  const res = await call('POST', '/poll/createpoll', body(over));
  expect(res.statusCode, res.body).toBe(201);
  const poll = res.json().data;
  await drainAll(env, teamId);
  return { poll, message: () => slackMessage(poll.receipt_id) };
}

/** A member presses a button of the message as they see it (`seen`: a message their client has not refreshed). */
async function press(member: string, actionId: string, seen: any, team = teamId) {
  const result = await env.emu.interactivity.clickButton({
    teamId: team,
    userId: member,
    channel,
    message: seen,
    actionId,
  });
  expect(result.status, JSON.stringify(result)).toBe(200);
  return result;
}

const info = async (id: number) => (await call('GET', `/poll/getpollinfo/${id}/${teamId}`)).json().data;
const ephemeralsOf = (member: string) => env.emu.interactivity.ephemerals(teamId, member, channel);

/** The test's own count: the options each member holds after what they did. */
class Tally {
  chosen = new Map<string, Set<number>>();
  constructor(
    private multiple: boolean,
    private max: number | null = null,
  ) {}
  /** What pressing `option` does; false when refused (over the limit). */
  press(member: string, option: number): boolean {
    const mine = this.chosen.get(member) ?? new Set<number>();
    if (mine.has(option)) mine.delete(option);
    else if (!this.multiple) {
      mine.clear();
      mine.add(option);
    } else if (this.max !== null && mine.size >= this.max) return false;
    else mine.add(option);
    this.chosen.set(member, mine);
    return true;
  }
  counts(n: number): number[] {
    const out = Array.from({ length: n }, () => 0);
    for (const s of this.chosen.values()) for (const o of s) out[o]!++;
    return out;
  }
}

describe('create a button poll: validation', () => {
  const refused = async (over: object, field: string, text?: string) => {
    const res = await call('POST', '/poll/createpoll', body(over));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(field);
    if (text) expect(res.json().message).toContain(text);
  };

  it('400 naming the field: more than 10 options, max choices out of range, emoji limits and settings kept', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({ value: `Option ${i}` }));
    await refused({ options: eleven }, 'options', POLL_TEXTS.maxButtonOptions);
    await refused({ options: [{ value: 'Same' }, { value: 'same ' }] }, 'options', POLL_TEXTS.duplicateValue);
    await refused({ options: [{ value: ' ' }] }, 'options', POLL_TEXTS.fillButtonOptions);
    await refused({ multiple: true, max_choices: 0 }, 'max_choices', POLL_TEXTS.maxChoices);
    await refused({ multiple: true, max_choices: 4 }, 'max_choices', POLL_TEXTS.maxChoices);
    await refused({ max_choices: 2 }, 'max_choices');
    await refused({ voting: 'ballots' }, 'voting');
    await refused({ results: 'never' }, 'results');
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((v, i) => ({
      emoji: '🙂',
      emoji_code: `e${i}`,
      value: v,
    }));
    await refused({ voting: 'emoji', options: six }, 'options', POLL_TEXTS.maxOptions);
    await refused(
      { voting: 'emoji', anonymous: true, options: [{ emoji: '👍', emoji_code: '+1', value: 'Yes' }] },
      'anonymous',
    );
    // Ten options are fine.
    const ten = Array.from({ length: 10 }, (_, i) => ({ value: `Option ${i}` }));
    const ok = await call('POST', '/poll/createpoll', body({ options: ten, poll_question: 'Ten?' }));
    expect(ok.statusCode, ok.body).toBe(201);
    await drainAll(env, teamId);
    const m = slackMessage(ok.json().data.receipt_id);
    expect(buttonsOf(m)).toHaveLength(10);
    expect((m.blocks as any[]).filter((b) => b.type === 'actions')).toHaveLength(2);
    await call('DELETE', `/poll/deletepoll/${ok.json().data.id}/${teamId}`);
  });

  it("close and reopen: another admin's workspace is 403, an unknown poll 404, a poll not closed 400", async () => {
    const { poll } = await createPoll({ poll_question: 'Tenancy?' });
    for (const route of ['closepoll', 'reopenpoll'])
      expect((await call('POST', `/poll/${route}/${poll.id}/${teamId}`, {}, stranger.token)).statusCode).toBe(
        403,
      );
    expect((await call('POST', `/poll/closepoll/99999/${teamId}`, {})).statusCode).toBe(404);
    const reopen = await call('POST', `/poll/reopenpoll/${poll.id}/${teamId}`, {});
    expect(reopen.statusCode).toBe(400);
    expect(reopen.json().message).toContain('pollId');
    await call('DELETE', `/poll/deletepoll/${poll.id}/${teamId}`);
  });
});

describe('a named single-choice poll', () => {
  it('counts what the members pressed: a vote, a move, a withdrawal; not another workspace; shows it live, paced', async () => {
    const { poll, message } = await createPoll();
    expect(poll).toMatchObject({ voting: 'buttons', anonymous: false, multiple: false, closed: false });
    const posted = message();
    expect(buttonsOf(posted).map((b) => b.text.text)).toEqual(['🍕 Pizza (0)', 'Sushi (0)', 'Tacos (0)']);
    const [a, b, c] = voters as [string, string, string];
    const tally = new Tally(false);
    const vote = async (member: string, option: number) => {
      tally.press(member, option);
      await press(member, `${POLL_VOTE_ACTION}${option}`, message());
    };
    await vote(a, 0);
    await vote(b, 1);
    await vote(c, 0);
    await vote(a, 2); // moves to Tacos
    await vote(c, 0); // withdraws
    await vote(b, 1); // withdraws
    await vote(b, 2);
    // Another workspace's member pressing (a forged or shared-channel press): refused, nothing counted.
    const theirs = await env.emu.interactivity.clickButton({
      teamId,
      userId: foreign,
      channel,
      message: message(),
      actionId: `${POLL_VOTE_ACTION}0`,
    });
    expect(theirs.status).toBe(200);

    const data = await info(poll.id);
    expect(data.poll_options.map((o: any) => o.count)).toEqual(tally.counts(3));
    expect(data.poll_options.map((o: any) => o.count)).toEqual([0, 0, 2]);
    expect(data.voter_count).toBe(2);
    const named = (await call('GET', `/poll/memberpollinfo/${poll.id}/${teamId}`)).json().data as any[];
    expect(named.map((v) => [v.user_id, v.value]).sort()).toEqual(
      [
        [a, 'Tacos'],
        [b, 'Tacos'],
      ].sort(),
    );
    const csv = (await call('GET', `/poll/exportpollinfo/${poll.id}/${teamId}`)).json().data as any[];
    expect(csv).toHaveLength(2);
    expect(csv.every((r) => r.value === 'Tacos' && r.name)).toBe(true);

    // The message catches up (coalesced: a handful of edits for the whole burst, not one per press).
    const live = await until('the counts in Slack', () => {
      const m = message();
      return buttonsOf(m).some((x) => x.text.text === 'Tacos (2)') ? m : undefined;
    });
    expect(live.text).toContain('2 voters so far');
    await new Promise((r) => setTimeout(r, 3500));
    const edits = env.emu
      .deliveries()
      .filter(
        (d: any) =>
          d.envelope.event?.subtype === 'message_changed' && d.envelope.event.message?.ts === posted.ts,
      );
    expect(edits.length).toBeGreaterThan(0);
    expect(edits.length).toBeLessThanOrEqual(4);
  });
});

describe('an anonymous multiple-choice poll with voters adding options', () => {
  let pollId: number;
  let receiptId: number;
  const tally = new Tally(true, 2);
  const message = () => slackMessage(receiptId);

  it('counts toggles, refuses a choice past the limit with an ephemeral notice, and takes an added option', async () => {
    const { poll } = await createPoll({
      poll_question: 'Which talks should we host?',
      anonymous: true,
      multiple: true,
      max_choices: 2,
      allow_add: true,
      results: 'closed',
    });
    pollId = poll.id;
    receiptId = poll.receipt_id;
    expect(poll).toMatchObject({
      anonymous: true,
      multiple: true,
      max_choices: 2,
      allow_add: true,
      results: 'closed',
    });
    // Hidden until close: no counts on the buttons or in the text.
    expect(buttonsOf(message()).map((b) => b.text.text)).toEqual([
      '🍕 Pizza',
      'Sushi',
      'Tacos',
      'Add an option',
    ]);
    expect(message().text).toContain('Results are shown when the poll closes');

    const [a, b, c, d] = voters as [string, string, string, string];
    const vote = async (member: string, option: number) => {
      const accepted = tally.press(member, option);
      await press(member, `${POLL_VOTE_ACTION}${option}`, message());
      return accepted;
    };
    expect(await vote(a, 0)).toBe(true);
    expect(await vote(a, 1)).toBe(true);
    expect(await vote(a, 2)).toBe(false); // a third: over the limit
    expect(ephemeralsOf(a).at(-1)?.text).toBe(POLL_TEXTS.choiceLimit(2));
    expect(await vote(a, 0)).toBe(true); // withdraws Pizza
    expect(await vote(a, 2)).toBe(true); // now Tacos fits
    expect(await vote(b, 1)).toBe(true);
    expect(await vote(c, 1)).toBe(true);
    expect(await vote(c, 2)).toBe(true);

    // d adds an option through the modal (views.open with the press's trigger_id), then votes for it.
    await press(d, POLL_ADD_ACTION, message());
    const view = env.emu.interactivity.surfaces(d).view as any;
    expect(view).toMatchObject({ title: { text: 'Add an option' } });
    const dup = await env.emu.interactivity.submitView(d, view.id, { option: { value: { value: 'sushi' } } });
    expect(dup.body).toMatchObject({ response_action: 'errors', errors: { option: POLL_TEXTS.optionTaken } });
    const added = await env.emu.interactivity.submitView(d, view.id, {
      option: { value: { value: '  Burritos  ' } },
    });
    expect(added.status).toBe(200);
    expect(env.emu.interactivity.surfaces(d).view).toBeNull();
    expect((await info(pollId)).poll_options.map((o: any) => o.value)).toEqual([
      'Pizza',
      'Sushi',
      'Tacos',
      'Burritos',
    ]);
    const withNew = await until('the new button', () => {
      const m = message();
      return buttonsOf(m).some((x) => x.action_id === `${POLL_VOTE_ACTION}3`) ? m : undefined;
    });
    expect(buttonsOf(withNew).find((x) => x.action_id === `${POLL_VOTE_ACTION}3`).text.text).toBe('Burritos');
    expect(await vote(d, 3)).toBe(true);
    expect(await vote(b, 3)).toBe(true);
    // Another workspace's member cannot add one either.
    const before = (await info(pollId)).poll_options.length;
    const foreignAdd = await env.emu.interactivity.clickButton({
      teamId,
      userId: foreign,
      channel,
      message: message(),
      actionId: POLL_ADD_ACTION,
    });
    expect(foreignAdd.status).toBe(200);
    expect(env.emu.interactivity.surfaces(foreign).view).toBeNull();

    const data = await info(pollId);
    expect(data.poll_options).toHaveLength(before);
    expect(data.poll_options.map((o: any) => o.count)).toEqual(tally.counts(4));
    expect(data.voter_count).toBe(4);
  });

  it('no voter member id is reachable: not in the poll tables, the API answers or the CSV', async () => {
    const ids = [...tally.chosen.keys()];
    expect(ids.length).toBe(4);
    const names = ([...env.emu.truth(teamId).members()] as any[])
      .filter((m) => ids.includes(m.id))
      .flatMap((m) => [m.profile?.email, m.real_name].filter((x: string | undefined) => x && x.length > 3));
    const tables = await rows(
      sql`select tablename from pg_tables where schemaname = 'public' and tablename like 'poll%' order by 1`,
    );
    expect(tables.map((t) => t.tablename)).toEqual(
      expect.arrayContaining(['poll_choices', 'poll_messages', 'poll_reactions', 'poll_votes', 'polls']),
    );
    let scanned = 0;
    for (const { tablename } of tables) {
      const all = await rows(sql.raw(`select * from "${tablename}"`));
      const mine = all.filter((r) => (r.poll_id ?? r.id) === pollId);
      scanned += mine.length;
      const text = JSON.stringify(mine);
      for (const id of ids) expect(text, `${tablename} holds ${id}`).not.toContain(id);
    }
    expect(scanned).toBeGreaterThan(1);
    const stored = await rows(sql`select voter, voted_at from poll_choices where poll_id = ${pollId}`);
    expect(stored.length).toBe(tally.counts(4).reduce((a, b) => a + b, 0));
    expect(stored.every((r) => /^h:[A-Za-z0-9_-]{43}$/.test(r.voter) && r.voted_at === null)).toBe(true);

    const answers = [
      await call('GET', `/poll/getpollinfo/${pollId}/${teamId}`),
      await call('GET', `/poll/getpolls/${teamId}`),
      await call('GET', `/poll/memberpollinfo/${pollId}/${teamId}`),
      await call('GET', `/poll/exportpollinfo/${pollId}/${teamId}`),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      for (const id of [...ids, ...names]) expect(res.body).not.toContain(id);
    }
    expect(answers[2]!.json().data).toEqual([]);
    expect(answers[3]!.json().data).toEqual(
      ['Pizza', 'Sushi', 'Tacos', 'Burritos'].map((value, i) => ({
        email: '',
        name: '',
        value,
        votes: tally.counts(4)[i],
      })),
    );
  });

  it('closed early: the message shows the results without buttons; a press on a stale message is refused with a notice; reopened, votes count again', async () => {
    const stale = message();
    const closed = await call('POST', `/poll/closepoll/${pollId}/${teamId}`, {});
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data).toMatchObject({ closed: true, state: 'expired' });
    expect(closed.json().message).toBe(POLL_TEXTS.closed);
    const final = message();
    expect(buttonsOf(final)).toEqual([]);
    expect(final.text).toContain('This poll is closed');
    expect(final.text).toMatch(/Sushi\*.* 3 votes/);
    const [a, , , , e] = voters as string[];
    await press(e!, `${POLL_VOTE_ACTION}0`, stale);
    expect(ephemeralsOf(e!).at(-1)?.text).toBe(POLL_TEXTS.votingClosed);
    expect((await info(pollId)).poll_options.map((o: any) => o.count)).toEqual(tally.counts(4));
    expect((await call('POST', `/poll/closepoll/${pollId}/${teamId}`, {})).statusCode).toBe(400);

    const reopened = await call('POST', `/poll/reopenpoll/${pollId}/${teamId}`, {});
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(reopened.json().data).toMatchObject({ closed: false, state: 'active' });
    const open = await until('the buttons back', () => (buttonsOf(message()).length ? message() : undefined));
    tally.press(e!, 0);
    await press(e!, `${POLL_VOTE_ACTION}0`, open);
    tally.press(a!, 1); // a withdraws Sushi
    await press(a!, `${POLL_VOTE_ACTION}1`, open);
    expect((await info(pollId)).poll_options.map((o: any) => o.count)).toEqual(tally.counts(4));
  });
});

/** The Slack settings of the test's server, for another server process on the same database. */
const slackEnvOf = () => ({
  SLACK_CLIENT_ID: env.emu.app.clientId,
  SLACK_CLIENT_SECRET: env.emu.app.clientSecret,
  SLACK_SIGNING_SECRET: env.emu.app.signingSecret,
  SLACK_API_URL: env.emu.apiUrl,
  SLACK_AUTHORIZE_URL: env.emu.authorizeUrl,
  SLACK_RATE_SCALE: '10000',
});

// PGlite is one process's database (a second server cannot open it): there, the workers are services on it.
describe.runIf(testDbKind() === 'postgres')('two server processes on one PostgreSQL database', () => {
  it('presses sent to either server at once, one server restarted mid-vote: every vote counted once', async () => {
    const { poll } = await createPoll({
      poll_question: 'Two servers?',
      multiple: true,
      max_choices: 2,
      anonymous: true,
    });
    const databaseUrl = env.t.ctx.config.databaseUrl!;
    const start = async () => {
      const t = await buildTestApp(slackEnvOf(), { database: { databaseUrl } });
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      return { t, url };
    };
    const pressOn = (url: string, member: string, option: number) =>
      deliverInteractivity(
        { ...env, url },
        {
          type: 'block_actions',
          team: { id: teamId },
          user: { id: member, team_id: teamId },
          trigger_id: `t${member}${option}`,
          channel: { id: channel },
          container: { type: 'message', channel_id: channel },
          actions: [{ action_id: `${POLL_VOTE_ACTION}${option}`, value: `${poll.id}:${option}` }],
        },
      );
    const tally = new Tally(true, 2);
    const other = await start();
    try {
      const round1 = voters.flatMap((m, i) => [
        [m, i % 3, i % 2 ? env.url : other.url],
        [m, (i + 1) % 3, i % 2 ? other.url : env.url],
      ]) as [string, number, string][];
      for (const [m, o] of round1) tally.press(m, o);
      const answers = await Promise.all(round1.map(([m, o, url]) => pressOn(url, m, o)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
    } finally {
      await other.t.close();
    }
    // The other server is restarted: a new process on the same database takes presses again.
    const again = await start();
    try {
      const round2 = voters.slice(0, 6).map((m, i) => [m, i % 3, i % 2 ? env.url : again.url]) as [
        string,
        number,
        string,
      ][];
      for (const [m, o] of round2) tally.press(m, o);
      await Promise.all(round2.map(([m, o, url]) => pressOn(url, m, o)));
    } finally {
      await again.t.close();
    }
    const data = await info(poll.id);
    expect(data.poll_options.map((o: any) => o.count)).toEqual(tally.counts(3));
    expect(data.voter_count).toBe([...tally.chosen.values()].filter((s) => s.size > 0).length);
  }, 120_000);
});

describe('two workers and a restart', () => {
  const noJobs: PollJobs = { refresh: async () => {}, closeAt: async () => {}, remove: async () => {} };
  /** A worker process's polls service: its own instance on the shared database (nothing else shared). */
  const worker = () =>
    pollsService({
      db: db(),
      audience: env.t.ctx.services.audience,
      delivery: env.t.ctx.services.delivery,
      timezoneOf: async () => 'UTC',
      jobs: noJobs,
      logger: createLogger('silent'),
      voterKey: pollVoterKey(env.t.ctx.config),
    });
  const pressed = (member: string, pollId: number, option: number) => ({
    team: { id: teamId },
    user: { id: member },
    trigger_id: 'x',
    channel: { id: channel },
    actions: [{ action_id: `${POLL_VOTE_ACTION}${option}`, value: `${pollId}:${option}` }],
  });

  it('presses split over two workers at once, then a restart mid-vote: every vote counted once', async () => {
    for (const anonymous of [false, true]) {
      const { poll } = await createPoll({
        poll_question: `Busy poll (${anonymous ? 'anonymous' : 'named'})?`,
        multiple: true,
        max_choices: 2,
        anonymous,
      });
      const tally = new Tally(true, 2);
      const [w1, w2] = [worker(), worker()];
      // Round one: every member presses two options, each press on either worker, all at the same time.
      const round1 = voters.flatMap((m, i) => [
        [m, i % 3, i % 2 ? w1 : w2],
        [m, (i + 1) % 3, i % 2 ? w2 : w1],
      ]) as [string, number, ReturnType<typeof worker>][];
      for (const [m, o] of round1) tally.press(m, o);
      await Promise.all(round1.map(([m, o, w]) => w.buttonVote(pressed(m, poll.id, o))));
      // A member holding two presses a third option on both workers at once: over the limit on each.
      const [m0] = voters as [string];
      const third = [0, 1, 2].find((o) => !tally.chosen.get(m0)!.has(o))!;
      const both = await Promise.all([w1, w2].map((w) => w.buttonVote(pressed(m0, poll.id, third))));
      expect(both).toEqual(['limit', 'limit']);
      // The restart: the workers are gone; new ones (and the app's own, through Slack) carry on.
      const [w3, w4] = [worker(), worker()];
      const round2 = voters.slice(0, 6).map((m, i) => [m, i % 3, i % 2 ? w3 : w4]) as [
        string,
        number,
        ReturnType<typeof worker>,
      ][];
      for (const [m, o] of round2) tally.press(m, o);
      await Promise.all(round2.map(([m, o, w]) => w.buttonVote(pressed(m, poll.id, o))));
      const m7 = voters[7]!;
      const held = [...tally.chosen.get(m7)!][0]!;
      tally.press(m7, held);
      await press(m7, `${POLL_VOTE_ACTION}${held}`, slackMessage(poll.receipt_id));

      const data = await info(poll.id);
      expect(data.poll_options.map((o: any) => o.count)).toEqual(tally.counts(3));
      expect(data.voter_count).toBe([...tally.chosen.values()].filter((s) => s.size > 0).length);
      const perVoter = await rows(
        sql`select voter, count(*)::int as n from poll_choices where poll_id = ${poll.id} group by voter`,
      );
      expect(perVoter.every((r) => r.n <= 2)).toBe(true);
      // The message shows the same counts once its refresh has run.
      await until('the message counts', () => {
        const b = buttonsOf(slackMessage(poll.receipt_id));
        return tally.counts(3).every((n, i) => b[i]?.text.text.endsWith(`(${n})`)) || undefined;
      });
    }
  });
});
