import crypto from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { FORM_MODAL_CALLBACK, FORM_OPEN_ACTION } from '@flywheel/shared/forms';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { typedRows } from '../db/sql.ts';
import { bearer, signedInUser } from '../testing/factories.ts';
import { installThroughOAuth, slackTestEnv, waitForBackfill, type SlackTestEnv } from '../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/*
 * Issue 18 "must show", extended by issue 33: a property-based fuzz test over every route of the OpenAPI document
 * (/api/docs/json), Slack's signed callbacks included. No answer may be a 5xx, and the server must still be healthy
 * afterwards. Four passes, each bounded:
 *   1. random requests built from each route's own schema (path, query, JSON body), mixed with hostile values
 *      (NUL bytes, half an emoji, an emoji where text is cut, huge numbers, impossible dates, long strings), RUNS
 *      per route, as a signed-in admin of a real workspace;
 *   2. every path parameter, query parameter and top-level body field of a plausible request of every route, set
 *      to each hostile value of TARGETED in turn (so each route meets each of them, not just some by chance);
 *   3. requests that are valid (they answer 2xx), for the routes that store people's text, with every field in
 *      them set to each hostile value in turn: the text reaches the code that cuts and stores it;
 *   4. Slack's callbacks, correctly signed, with hostile values in events and interactivity payloads: never a
 *      5xx, and every event acknowledged is kept.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 18);

type Schema = Record<string, any>;
let env: SlackTestEnv;
let admin: { token: string; userid: string; email: string };
let teamId: string;
let memberId: string;
let channelId: string;
let doc: { paths: Record<string, Record<string, any>> };

beforeAll(async () => {
  env = await slackTestEnv({ workspaces: [{ seed: 21, members: 12, channels: 3, days: 3 }] });
  teamId = env.emu.teamIds[0]!;
  admin = await signedInUser(env.t);
  expect((await installThroughOAuth(env, admin, { teamId })).statusCode).toBe(200);
  await waitForBackfill(env, admin.token, teamId);
  const truth = env.emu.truth(teamId);
  memberId = ([...truth.members()] as any[]).find((m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT').id;
  channelId = (truth.channels() as any[]).find((c) => !c.is_private && !c.is_im && !c.is_archived).id;
  doc = (await env.t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
}, 120_000);
afterAll(() => env.close());

/** Text with an emoji across index `at`, where a cut of `at` code units would keep half of it. */
const emojiAcross = (at: number, emoji = '🎉') => `${'a'.repeat(at)}${emoji}${'b'.repeat(24)}`;
/** Where the server cuts text a request gives it (form modal title, poll and send snippets, workflow titles). */
const CUT_POINTS = [23, 56, 72, 76];
/** Where text is cut anywhere (labels, columns, user agents, lookups, errors too): an emoji across each. */
const ACROSS_CUTS = [
  ...[...CUT_POINTS, 11, 39, 59, 79, 99, 299, 319, 999].map((n) => emojiAcross(n)),
  emojiAcross(55, '👨‍👩‍👧'),
];

const NUL_TEXTS = ['\u0000', 'T\u0000x'];
const HALF_EMOJI = ['\ud83c', '\udf89 tail', 'x\ud800y'];
const HUGE_NUMBERS = [2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, 1e308, -1e308];
const HUGE_NUMBER_TEXTS = [
  '2147483648',
  '-2147483649',
  '9223372036854775808',
  '99999999999999999999',
  '1e400',
];

/** Each route meets each of these in pass 2. */
const TARGETED: unknown[] = [
  ...NUL_TEXTS.slice(1),
  ...HALF_EMOJI.slice(0, 2),
  emojiAcross(56),
  2 ** 31,
  2 ** 53,
  '99999999999999999999',
];

const hostileString = fc.constantFrom(
  '',
  ...NUL_TEXTS,
  ...HALF_EMOJI,
  ...ACROSS_CUTS,
  ...HUGE_NUMBER_TEXTS,
  '\u0007bell',
  "'; drop table users; --",
  '%00',
  '../../etc/passwd',
  'x'.repeat(5000),
  '0001-01-01',
  '9999-12-31',
  '2024-02-30',
  '2024-13-01',
  '💥',
  '<script>alert(1)</script>',
  '=HYPERLINK("http://evil.example","x")',
);
const hostileNumber = fc.constantFrom(0, -1, 0.5, Number.MAX_SAFE_INTEGER, ...HUGE_NUMBERS);
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  hostileString,
  fc.constant([]),
  fc.constant({}),
  fc.constant([['nested']]),
);

/** A value for a JSON schema: usually a plausible one, sometimes (never, when `calm`) a hostile one. */
function arb(schema: Schema | undefined, name = '', calm = false): fc.Arbitrary<unknown> {
  if (!schema) return calm ? fc.constant('x') : anyJson;
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((s: Schema) => arb(s, name, calm)));
  const plausible = plausibleArb(schema, name, calm);
  if (calm) return plausible;
  return fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: anyJson });
}

function plausibleArb(schema: Schema, name: string, calm: boolean): fc.Arbitrary<unknown> {
  const text = (a: fc.Arbitrary<unknown>) => (calm ? a : fc.oneof(a, hostileString));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  // Ids by their field's name (in an array of them, each item is named as its array).
  if (schema.type !== 'array' && schema.type !== 'object') {
    if (/^team_?id$/i.test(name)) return text(fc.constant(teamId));
    if (/^member_?id$|^user_?ids?$|^users$|^members$/i.test(name)) return text(fc.constant(memberId));
    if (/^channel(_?ids?)?$|^channels$/i.test(name)) return text(fc.constant(channelId));
  }
  switch (schema.type) {
    case 'string':
      if (/date/.test(name))
        return text(
          fc
            .date({ min: new Date('1990-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
        );
      if (/email/.test(name)) return text(fc.emailAddress());
      return text(calm ? fc.stringMatching(/^[A-Za-z][a-z ]{2,30}$/) : fc.string({ maxLength: 40 }));
    case 'integer':
      return calm
        ? fc.integer({ min: 1, max: 400 })
        : fc.oneof(fc.integer({ min: -5, max: 400 }), hostileNumber);
    case 'number':
      return calm ? fc.integer({ min: 1, max: 400 }) : fc.oneof(fc.double({ noNaN: true }), hostileNumber);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arb(schema.items, name, calm), { maxLength: calm ? 2 : 5 });
    case 'object': {
      const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      return fc.record(Object.fromEntries(props.map(([k, s]) => [k, arb(s, k, calm)])), {
        requiredKeys: calm ? undefined : [],
      });
    }
    default:
      return calm ? fc.constant('x') : anyJson;
  }
}

/** Percent-encodes every UTF-8 byte (a lone surrogate becomes U+FFFD, as a browser would send it). */
const pathSegment = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

type Operation = { method: string; path: string; op: any };
const operations = (): Operation[] =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
const apiOperations = () => operations().filter((o) => !/^\/api\/docs|^\/slack\//.test(o.path));

type Params = Record<string, unknown>;
type Req = { method: string; url: string; body: unknown };
const paramsOf = (op: any) => (op.parameters ?? []) as { in: string; name: string; schema: Schema }[];

function toRequest({ method, path }: Operation, values: Params, body: unknown): Req {
  let url = path;
  const query = new URLSearchParams();
  for (const [key, v] of Object.entries(values)) {
    const [where, name] = key.split(':') as [string, string];
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    if (where === 'path') url = url.replace(`{${name}}`, pathSegment(text || 'x'));
    else if (v !== undefined) query.set(name, text);
  }
  const qs = query.toString();
  return { method, url: qs ? `${url}?${qs}` : url, body };
}

function requestArb(o: Operation, calm = false) {
  const params = paramsOf(o.op);
  const values = fc.record(
    Object.fromEntries(params.map((p) => [`${p.in}:${p.name}`, arb(p.schema, p.name, calm)])),
    { requiredKeys: params.filter((p) => calm || p.in === 'path').map((p) => `${p.in}:${p.name}`) },
  );
  const bodySchema = o.op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const body = o.op.requestBody ? arb(bodySchema, '', calm) : fc.constant(undefined);
  return fc.record({ values, body });
}

const failures: string[] = [];
let requests = 0;
// Each test reports its own failures.
beforeEach(() => {
  failures.length = 0;
});

/** Sends one request as the admin; a 5xx (or a thrown inject) is recorded as a failure. */
async function send(o: Operation, req: Req): Promise<number> {
  requests++;
  // Logging out would end the session the other requests use.
  const headers = o.path.endsWith('/auth/logout') ? {} : bearer(admin.token);
  const res = await env.t.app
    .inject({
      method: req.method as any,
      url: req.url,
      // A content type without a body is refused before any handler (an empty JSON body): only with one.
      headers: req.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      payload: req.body === undefined ? undefined : JSON.stringify(req.body),
    })
    .catch((err: Error) => ({ statusCode: 599, body: `thrown: ${err.message}` }));
  if (res.statusCode >= 500)
    failures.push(
      `${req.method} ${req.url.slice(0, 200)} ${JSON.stringify(req.body)?.slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 200)}`,
    );
  return res.statusCode;
}

/** Every primitive in a JSON value, with its path. */
function leaves(v: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, [...path, i]));
  if (v !== null && typeof v === 'object')
    return Object.entries(v).flatMap(([k, x]) => leaves(x, [...path, k]));
  return [path];
}

function setAt<T>(root: T, path: (string | number)[], value: unknown): T {
  const copy = structuredClone(root) as any;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path.at(-1)!] = value;
  return copy;
}

describe('fuzzing every route of the OpenAPI document', () => {
  it('random requests from each route schema, hostile values mixed in: no 5xx', async () => {
    const ops = apiOperations();
    expect(ops.length).toBeGreaterThanOrEqual(45);
    const before = requests;
    for (const o of ops) {
      await fc
        .assert(
          fc.asyncProperty(requestArb(o), async ({ values, body }) => {
            return (await send(o, toRequest(o, values, body))) < 500;
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        )
        .catch((err: Error) => {
          if (!failures.length) failures.push(`${o.method} ${o.path}: ${err.message.slice(0, 500)}`);
        });
    }
    expect(failures).toEqual([]);
    expect(requests - before).toBeGreaterThanOrEqual(ops.length * RUNS * 0.9);
  }, 180_000);

  it('every parameter and top-level field of every route, set to each targeted value (NUL, half an emoji, an emoji at a cut, huge ints): no 5xx', async () => {
    let sent = 0;
    for (const o of apiOperations()) {
      const [{ values, body }] = fc.sample(requestArb(o, true), { numRuns: 1, seed: SEED }) as [
        { values: Params; body: unknown },
      ];
      const slots: [string, (v: unknown) => Req][] = Object.keys(values).map((key) => [
        key,
        (v) => toRequest(o, { ...values, [key]: v }, body),
      ]);
      if (body && typeof body === 'object' && !Array.isArray(body))
        for (const key of Object.keys(body))
          slots.push([`body.${key}`, (v) => toRequest(o, values, { ...body, [key]: v })]);
      for (const [, make] of slots)
        for (const v of TARGETED) {
          await send(o, make(v));
          sent++;
        }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(500);
  }, 240_000);

  it('valid requests of the routes that store text, each field set to each hostile value: no 5xx, and an emoji where text is cut answers as letters would', async () => {
    const examples = validExamples();
    const unlike: string[] = [];
    for (const [route, body] of Object.entries(examples)) {
      const [method, path] = route.split(' ') as [string, string];
      const o = { method, path, op: {} };
      // The example itself must stay valid, or its fields never reach the code under test.
      const status = await send(o, { method, url: path, body });
      expect([route, status >= 200 && status < 300]).toEqual([route, true]);
      for (const leaf of leaves(body)) {
        const at = (v: unknown) => send(o, { method, url: path, body: setAt(body, leaf, v) });
        // An emoji's name (emoji_code) is a name, not text: letters fit it, an emoji does not.
        if (/code$/.test(String(leaf.at(-1)))) continue;
        for (const n of CUT_POINTS) {
          // The same text with one or two letters where the emoji is (a limit may count the emoji as one
          // character or as two code units): whatever the rules say of one of them, they say of the emoji.
          const two = Math.floor((await at(emojiAcross(n, 'xy'))) / 100);
          const one = Math.floor((await at(emojiAcross(n, 'x'))) / 100);
          const emoji = await at(emojiAcross(n));
          if (Math.floor(emoji / 100) !== two && Math.floor(emoji / 100) !== one)
            unlike.push(
              `${route} ${leaf.join('.')}, emoji at ${n}: ${emoji} (${two}xx, ${one}xx with letters)`,
            );
        }
        for (const v of [emojiAcross(55, '👨‍👩‍👧'), ...NUL_TEXTS, ...HALF_EMOJI, ...HUGE_NUMBERS.slice(0, 3)])
          await at(v);
        await at('99999999999999999999');
      }
    }
    expect(failures).toEqual([]);
    expect(unlike).toEqual([]);
    expect((await env.t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 300_000);
});

/** Requests the product accepts (2xx), for the routes whose handlers store or cut people's text. */
function validExamples(): Record<string, object> {
  return {
    'POST /api/v0/poll/createpoll': {
      team_id: teamId,
      channel_ids: [channelId],
      poll_question: 'Which day suits the *meetup*?',
      options: [
        { emoji: '👍', emoji_code: 'thumbsup', value: 'Tuesday' },
        { emoji: '🎉', emoji_code: 'tada', value: 'Wednesday' },
      ],
      sender: 'bot',
      // Posted now: the receipt's description (the question cut to 60 characters) is written in the request.
      type: 'instant',
      images: [],
    },
    'POST /api/v0/actions/createform': {
      team_id: teamId,
      form_title: 'Check-in',
      form_description: 'Tell us how it went',
      sender: 'b',
      dms: { members: [memberId] },
      recurring: true,
      frequency: 'Everyday',
      time: '09:00',
      questions: [
        { question: 'What did you ship?', type: 'descriptive' },
        { question: 'How was it?', type: 'mcq', options: ['Great', 'Fine'] },
      ],
      ackMessage: 'Thanks!',
    },
    'POST /api/v0/quickaction/sendmessage': {
      team_id: teamId,
      sender: 'bot',
      message: 'Hello *everyone*',
      channel_ids: [channelId],
    },
    'POST /api/v0/homepage/createtasks': { team_id: teamId, title: 'Welcome newcomers', description: 'Soon' },
    'POST /api/v0/tags/createtag': { team_id: teamId, name: 'fuzzed' },
    'POST /api/v0/actions/createscheduled': {
      team_id: teamId,
      trigger_name: 'Hello',
      message_sender: 'b',
      message: 'hi there',
      dms: { members: [memberId] },
      frequency: 'Everyday',
      time: '09:00',
    },
    'POST /api/v0/actions/createautomation': {
      team_id: teamId,
      message_sender: 'b',
      message: 'Welcome aboard!',
      send_dm: true,
    },
    'POST /api/v0/workflows/createworkflow': {
      team_id: teamId,
      workflow_name: 'Onboarding',
      sender: 'b',
      trigger_type: 'workspace_join',
      tasks: [
        { type: 'message', msgTitle: 'Welcome', text: 'Hello!', delay: null, sendToSelectedUsers: true },
        {
          type: 'form',
          formTitle: 'First days',
          formDescription: 'Tell us how your first days went',
          questions: [{ question: 'How is it going?', type: 'descriptive' }],
          delay: { delay_unit: 'days', delay_in_secs: 86_400 },
          sendToSelectedUsers: true,
        },
      ],
    },
  };
}

describe("fuzzing Slack's signed callbacks", () => {
  const signed = (body: string, contentType: string) => {
    const ts = Math.floor(Date.now() / 1000).toString();
    const sig = `v0=${crypto.createHmac('sha256', env.emu.app.signingSecret).update(`v0:${ts}:${body}`).digest('hex')}`;
    return {
      'content-type': contentType,
      'x-slack-request-timestamp': ts,
      'x-slack-signature': sig,
    };
  };
  const post = async (url: string, body: string, contentType: string, what: string) => {
    requests++;
    const res = await env.t.app.inject({
      method: 'POST',
      url,
      headers: signed(body, contentType),
      payload: body,
    });
    if (res.statusCode >= 500) failures.push(`${url} ${what.slice(0, 300)} -> ${res.statusCode} ${res.body}`);
    return res.statusCode;
  };

  const hostileValue = fc.oneof(
    hostileString,
    hostileNumber,
    fc.constantFrom(...HUGE_NUMBER_TEXTS, '1000000000.000100', '99999999999.999999', '-1'),
  );
  /** A plausible event of each kind this product listens to, as Slack shapes it. */
  const eventOf = (kind: number, ts: string) =>
    [
      { type: 'message', channel: channelId, user: memberId, text: 'hello there', ts },
      {
        type: 'message',
        subtype: 'thread_broadcast',
        channel: channelId,
        user: memberId,
        text: 'hi',
        ts,
        thread_ts: ts,
      },
      {
        type: 'reaction_added',
        user: memberId,
        reaction: 'thumbsup',
        item: { type: 'message', channel: channelId, ts },
        event_ts: ts,
      },
      {
        type: 'reaction_removed',
        user: memberId,
        reaction: 'tada',
        item: { type: 'message', channel: channelId, ts },
        event_ts: ts,
      },
      {
        type: 'team_join',
        user: { id: 'UFUZZ0001', name: 'fuzz', real_name: 'Fuzz', profile: { email: 'fuzz@example.com' } },
      },
      {
        type: 'user_change',
        user: { id: memberId, name: 'n', real_name: 'Renamed', updated: 1, profile: { display_name: 'r' } },
      },
      { type: 'member_joined_channel', user: memberId, channel: channelId, event_ts: ts },
      {
        type: 'channel_created',
        channel: { id: 'CFUZZ0001', name: 'fuzz-room', created: 1, creator: memberId },
      },
      {
        type: 'pin_added',
        user: memberId,
        channel_id: channelId,
        item: { type: 'message', message: { ts, text: 'pinned' } },
        event_ts: ts,
      },
    ][kind]!;

  it('events, signed, with each field hostile in turn: no 5xx, and every acknowledged event is kept', async () => {
    const ts = `${Math.floor(Date.now() / 1000)}.000100`;
    const ids: string[] = [];
    let n = 0;
    const sample = fc.sample(fc.tuple(fc.nat(8), hostileValue), { numRuns: 250, seed: SEED });
    for (const [kind, v] of sample) {
      const event = eventOf(kind, ts);
      const all = leaves(event).filter((p) => p[0] !== 'type');
      const leaf = all[n % all.length]!;
      const eventId = `EvFUZZ${SEED}x${n++}`;
      const body = JSON.stringify({
        token: 'x',
        team_id: teamId,
        api_app_id: env.emu.app.appId,
        type: 'event_callback',
        event_id: eventId,
        event_time: Math.floor(Date.now() / 1000),
        event: setAt(event, leaf, v),
      });
      if ((await post('/slack/events', body, 'application/json', body)) === 200) ids.push(eventId);
    }
    expect(failures).toEqual([]);
    await env.t.ctx.services.events.drain();
    const kept = await typedRows<{ n: number }>(
      env.t.ctx.database.db,
      sql`select count(*)::int as n from slack_inbox where event_id like ${`EvFUZZ${SEED}x%`}`,
    );
    expect(ids.length).toBeGreaterThan(150);
    expect(kept[0]!.n).toBe(ids.length);
  }, 120_000);

  it('interactivity payloads, signed, with each field hostile in turn: no 5xx', async () => {
    // A real instance, sent to the member, so a submission reaches the answers' checks and storage.
    const form = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/actions/createform',
      headers: bearer(admin.token),
      payload: { ...validExamples()['POST /api/v0/actions/createform'], recurring: false, instant: true },
    });
    expect(form.statusCode, form.body).toBe(201);
    const instances = await env.t.app.inject({
      method: 'GET',
      url: `/api/v0/actions/getallforminstances/${teamId}/${form.json().data.master_form_id}`,
      headers: bearer(admin.token),
    });
    const instance = instances.json().data[0].form_id as number;
    const submission = {
      type: 'view_submission',
      team: { id: teamId },
      user: { id: memberId, team_id: teamId },
      view: {
        id: 'VFUZZ0001',
        callback_id: FORM_MODAL_CALLBACK,
        private_metadata: JSON.stringify({ instance }),
        state: {
          values: {
            q0: { answer: { type: 'plain_text_input', value: 'An answer' } },
            q1: { answer: { type: 'static_select', selected_option: { value: '0' } } },
          },
        },
      },
    };
    const click = {
      type: 'block_actions',
      team: { id: teamId },
      user: { id: memberId },
      trigger_id: '1.2.3',
      actions: [{ action_id: FORM_OPEN_ACTION, value: String(instance) }],
    };
    const metadata = ['{"instance":1e308}', '{"instance":2147483648}', '{"instance":"\\u0000"}', 'null', '{'];
    for (const payload of [submission, click])
      for (const leaf of leaves(payload))
        for (const v of [...TARGETED, ...HUGE_NUMBER_TEXTS, ...metadata, null, {}]) {
          const body = new URLSearchParams({ payload: JSON.stringify(setAt(payload, leaf, v)) }).toString();
          await post('/slack/interactivity', body, 'application/x-www-form-urlencoded', body);
        }
    expect(failures).toEqual([]);
    // The member's answers were stored (one row per member, however many submissions got through).
    const [stored] = await typedRows<{ n: number }>(
      env.t.ctx.database.db,
      sql`select count(*)::int as n from form_responses where instance_id = ${instance}`,
    );
    expect(stored!.n).toBe(1);
    expect((await env.t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 120_000);
});
