import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signedHeaders } from '@flywheel/slack-emulator';
import { typedRows } from '../../db/sql.ts';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { connectedWorkspace } from '../../testing/workspace.ts';
import { modules } from '../index.ts';
import { defineModule } from '../module.ts';
import { defineEventListener, defineInteractivityListener, type EventListener } from './listeners.ts';

const SECRET = 'listener-test-signing-secret';
const TEAM = 'TLISTEN1';

// A module of the kind later issues add (a poll counting votes, a form answering its submission), written
// against the public contract only: module.ts, listeners typed by the event catalogue, rows written with scope.tx.
const reactionSeen = defineEventListener({
  type: 'reaction_added',
  async handle(e, scope) {
    if (!e.user || !e.item?.ts) return;
    // In the drain's transaction: the reaction workspace-data applied is visible, and the row commits with it.
    const [live] = await typedRows<{ n: number }>(
      scope.tx,
      sql`select count(*)::int as n from slack_reactions where team_id = ${scope.teamId} and ts = ${e.item.ts}
        and user_id = ${e.user} and removed_at is null`,
    );
    await scope.tx.execute(sql`insert into test_listener_rows (event_id, team_id, what, txid, facts_seen)
      values (${scope.eventId}, ${scope.teamId}, ${e.reaction}, txid_current()::text, ${live?.n ?? 0})`);
  },
});
// Asks for a field Slack's reaction_added does not carry: refused for this listener only (a listener built by hand,
// as the registry stores them, with a schema of its own instead of the catalogue's).
const strictListener: EventListener = {
  type: 'reaction_added',
  payload: z.object({ vote_id: z.string() }),
  async handle() {
    throw new Error('never called: the payload does not fit');
  },
};
// Interactivity listeners read the payload catalogue's schemas (slack/interactivity.ts) by type.
const votes = defineInteractivityListener({
  type: 'block_actions',
  match: (p) => p.actions.some((a) => a.action_id.startsWith('poll:')),
  async handle(p) {
    return { counted: p.actions[0]!.value };
  },
});
const submissions = defineInteractivityListener({
  type: 'view_submission',
  match: (p) => p.view.callback_id?.startsWith('form:') ?? false,
  async handle() {
    return { response_action: 'errors', errors: { answer: 'Please answer' } };
  },
});
const testModule = defineModule({
  name: 'listener-test',
  events: [reactionSeen, strictListener],
  interactivity: [votes, submissions],
});

let t: TestApp;
let seq = 0;
beforeAll(async () => {
  t = await buildTestApp(
    { SLACK_SIGNING_SECRET: SECRET },
    { workers: false, modules: [...modules, testModule] },
  );
  await connectedWorkspace(t, TEAM);
  await t.ctx.database.db.execute(sql`create table test_listener_rows (event_id text primary key,
    team_id text not null, what text not null, txid text not null, facts_seen int not null)`);
}, 60_000);
afterAll(() => t?.close());

const signed = (body: string, contentType: string) => ({
  'content-type': contentType,
  ...signedHeaders(SECRET, body, Math.floor(Date.now() / 1000)),
});

async function deliver(event: Record<string, unknown>): Promise<string> {
  const eventId = `EvLISTEN${++seq}`;
  const body = JSON.stringify({
    type: 'event_callback',
    team_id: TEAM,
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    event,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/slack/events',
    headers: signed(body, 'application/json'),
    payload: body,
  });
  expect(res.statusCode).toBe(200);
  return eventId;
}

const interact = (payload: unknown) => {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  return t.app.inject({
    method: 'POST',
    url: '/slack/interactivity',
    headers: signed(body, 'application/x-www-form-urlencoded'),
    payload: body,
  });
};

describe('event listeners registered by a module', () => {
  it('receive drained events in the batch transaction, after the facts; a refused payload skips only its listener', async () => {
    const ts = `${Math.floor(Date.now() / 1000)}.000100`;
    const reaction = (user: string, name: string) => ({
      type: 'reaction_added',
      user,
      reaction: name,
      item: { type: 'message', channel: 'C1', ts },
      event_ts: `${Math.floor(Date.now() / 1000)}.000200`,
    });
    const first = await deliver(reaction('U1', 'tada'));
    const second = await deliver(reaction('U2', 'eyes'));
    // A message in between (no listener of its type) is applied by workspace-data as always.
    await deliver({ type: 'message', channel: 'C1', user: 'U3', text: 'hello', ts });
    expect(await t.ctx.services.events.drain()).toBe(3);

    const seen = await typedRows<{ event_id: string; what: string; txid: string; facts_seen: number }>(
      t.ctx.database.db,
      sql`select event_id, what, txid, facts_seen from test_listener_rows order by event_id`,
    );
    expect(seen.map(({ event_id, what, facts_seen }) => ({ event_id, what, facts_seen }))).toEqual([
      { event_id: first, what: 'tada', facts_seen: 1 },
      { event_id: second, what: 'eyes', facts_seen: 1 },
    ]);
    // One batch, one transaction.
    expect(new Set(seen.map((r) => r.txid)).size).toBe(1);
    // The batch went through whole: every event processed, none set aside, the reactions counted.
    const inbox = await typedRows<{ processed: boolean; error: string | null }>(
      t.ctx.database.db,
      sql`select processed_at is not null as processed, error from slack_inbox where team_id = ${TEAM}`,
    );
    expect(inbox).toEqual(Array(3).fill({ processed: true, error: null }));
    const [counted] = await typedRows<{ n: number }>(
      t.ctx.database.db,
      sql`select coalesce(sum(reactions), 0)::int as n from activity_daily where team_id = ${TEAM}`,
    );
    expect(counted?.n).toBe(2);
  });

  it('a listener that fails rolls its rows back with the batch (the drain sets the event aside)', async () => {
    const failing = defineModule({
      name: 'failing',
      events: [
        defineEventListener({
          type: 'team_join',
          async handle(e, scope) {
            await scope.tx
              .execute(sql`insert into test_listener_rows (event_id, team_id, what, txid, facts_seen)
              values (${scope.eventId}, ${scope.teamId}, ${e.user.id}, txid_current()::text, 0)`);
            throw new Error('listener failed');
          },
        }),
      ],
    });
    const other = await buildTestApp(
      { SLACK_SIGNING_SECRET: SECRET },
      { workers: false, modules: [...modules, failing] },
    );
    try {
      await connectedWorkspace(other, 'TLISTEN2');
      await other.ctx.database.db.execute(sql`create table test_listener_rows (event_id text primary key,
        team_id text not null, what text not null, txid text not null, facts_seen int not null)`);
      const body = JSON.stringify({
        type: 'event_callback',
        team_id: 'TLISTEN2',
        event_id: 'EvFAIL1',
        event: { type: 'team_join', user: { id: 'U9', name: 'nine' } },
      });
      const res = await other.app.inject({
        method: 'POST',
        url: '/slack/events',
        headers: signed(body, 'application/json'),
        payload: body,
      });
      expect(res.statusCode).toBe(200);
      await other.ctx.services.events.drain();
      const rows = await typedRows(other.ctx.database.db, sql`select * from test_listener_rows`);
      expect(rows).toEqual([]);
      const members = await typedRows(
        other.ctx.database.db,
        sql`select member_id from slack_members where team_id = 'TLISTEN2'`,
      );
      expect(members).toEqual([]);
      // Retried alone until the drain gives up on it (5 attempts), then set aside with the listener's error.
      const [inbox] = await typedRows<{ attempts: number; error: string; processed: boolean }>(
        other.ctx.database.db,
        sql`select attempts, error, processed_at is not null as processed from slack_inbox
          where event_id = 'EvFAIL1'`,
      );
      expect(inbox).toEqual({ attempts: 5, error: 'listener failed', processed: true });
    } finally {
      await other.close();
    }
  }, 60_000);
});

describe('interactivity listeners registered by a module', () => {
  /** A button press, with the fields every block_actions carries. */
  const pressed = { type: 'block_actions', team: { id: TEAM }, user: { id: 'U1' }, trigger_id: '1.2.abc' };

  it('answer the payloads they match by type and match; anything else gets an empty 200', async () => {
    const vote = await interact({ ...pressed, actions: [{ action_id: 'poll:vote', value: 'yes' }] });
    expect(vote.statusCode).toBe(200);
    expect(vote.json()).toEqual({ counted: 'yes' });

    const form = await interact({
      type: 'view_submission',
      team: { id: TEAM },
      user: { id: 'U1' },
      view: { callback_id: 'form:42', state: { values: {} } },
    });
    expect(form.json()).toEqual({ response_action: 'errors', errors: { answer: 'Please answer' } });

    for (const unmatched of [
      { ...pressed, actions: [{ action_id: 'other:button' }] },
      // Not a block_actions the catalogue accepts: no trigger_id, no actions.
      { type: 'block_actions', actions: [{ action_id: 'poll:vote', value: 'yes' }] },
      { type: 'block_actions' },
      { type: 'view_closed', view: { callback_id: 'form:42' } },
      { type: 'shortcut', callback_id: 'poll:new' },
    ]) {
      const res = await interact(unmatched);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('');
    }
  });

  it('an unsigned payload is refused before any listener sees it', async () => {
    const body = new URLSearchParams({
      payload: JSON.stringify({ type: 'block_actions', actions: [{ action_id: 'poll:vote' }] }),
    }).toString();
    const res = await t.app.inject({
      method: 'POST',
      url: '/slack/interactivity',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });
    expect(res.statusCode).toBe(401);
  });
});
