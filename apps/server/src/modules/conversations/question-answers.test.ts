import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { connectedWorkspace } from '../../testing/workspace.ts';
import { typedRows } from '../../db/sql.ts';
import { rollupBuffer } from '../activity/rollups.ts';
import { applyEvent, factsWriter, recordMessage, type IngestScope } from '../workspace-data/ingest.ts';

/*
 * conversation_question_answers as the ingestion keeps it, event by event and in held batches, against what
 * each case must give by docs/product/questions.md ("What is a question", "What answers it"): edits, deletes,
 * removals and events that arrive before the message they are about.
 */

const TEAM = 'TQANSWERS1';
const C = 'C0QA00001';
let t: TestApp;
let seq = 0;
/** A fresh ts, `minutes` after a fixed start. */
const tsAt = (minutes: number) => `${1_790_000_000 + minutes * 60}.${String(++seq).padStart(6, '0')}`;
const iso = (ts: string) => new Date(Number(ts.split('.')[0]) * 1000).toISOString();

beforeAll(async () => {
  t = await buildTestApp({}, { workers: false });
  await connectedWorkspace(t, TEAM);
}, 60_000);
afterAll(() => t?.close());

/** Applies events in one transaction: one by one, or held and written together (as the drain and import do). */
async function apply(events: Record<string, unknown>[], held = false) {
  await t.ctx.database.db.transaction(async (tx) => {
    const s: IngestScope = {
      tx,
      teamId: TEAM,
      tz: 'UTC',
      buf: rollupBuffer(),
      ...(held ? { facts: factsWriter() } : {}),
    };
    for (const event of events) await applyEvent(s, { team_id: TEAM, event: { channel: C, ...event } });
    await s.facts?.flush(tx);
    await s.buf.flush(tx);
  });
}
const msg = (ts: string, user: string, text: string, extra: Record<string, unknown> = {}) => ({
  type: 'message',
  ts,
  user,
  text,
  ...extra,
});
const reply = (ts: string, parent: string, user: string) => msg(ts, user, 'an answer', { thread_ts: parent });
const react = (type: 'reaction_added' | 'reaction_removed', ts: string, user: string, at: string) => ({
  type,
  user,
  reaction: 'thumbsup',
  item: { type: 'message', channel: C, ts },
  event_ts: at,
});
const del = (ts: string, at: string) => ({
  type: 'message',
  subtype: 'message_deleted',
  deleted_ts: ts,
  event_ts: at,
});
const edit = (ts: string, user: string, text: string, at: string) => ({
  type: 'message',
  subtype: 'message_changed',
  message: { ts, user, text },
  event_ts: at,
});

/** The stored row of a message: absent (not a question), or its first answer (null: none). */
async function stored(ts: string): Promise<'none' | string | null> {
  const [r] = await typedRows<{ first_answer_at: string | null }>(
    t.ctx.database.db,
    sql`select first_answer_at from conversation_question_answers where team_id = ${TEAM} and channel_id = ${C} and ts = ${ts}`,
  );
  if (!r) return 'none';
  return r.first_answer_at === null ? null : new Date(r.first_answer_at).toISOString();
}

describe.each([false, true])(
  'conversation_question_answers kept by the ingestion (held batches: %s)',
  (held) => {
    it('a question gets a row; a statement, a reply, a bot line and a system line do not', async () => {
      const q = tsAt(0);
      const s = tsAt(1);
      const b = tsAt(2);
      const j = tsAt(3);
      await apply(
        [
          msg(q, 'U1', 'Is the deploy done'),
          msg(s, 'U1', 'Island photos are up'),
          msg(b, 'U1', 'what?', { bot_id: 'B1' }),
          msg(j, 'U1', 'who joined?', { subtype: 'channel_topic' }),
        ],
        held,
      );
      expect(await stored(q)).toBeNull();
      expect(await stored(s)).toBe('none');
      expect(await stored(b)).toBe('none');
      expect(await stored(j)).toBe('none');
    });

    it("the first reply or reaction by someone else answers; the asker's own do not; the earliest counts", async () => {
      const q = tsAt(10);
      const own = tsAt(11);
      const r1 = tsAt(20);
      const r2 = tsAt(15);
      await apply([msg(q, 'U1', 'how do I log in?'), reply(own, q, 'U1')], held);
      await apply([react('reaction_added', q, 'U1', tsAt(12))], held);
      expect(await stored(q)).toBeNull();
      await apply([reply(r1, q, 'U2')], held);
      expect(await stored(q)).toBe(iso(r1));
      await apply([reply(r2, q, 'U3')], held); // arrives later, was posted earlier
      expect(await stored(q)).toBe(iso(r2));
      const at = tsAt(13);
      await apply([react('reaction_added', q, 'U4', at)], held);
      expect(await stored(q)).toBe(iso(at));
    });

    it('a deleted reply and a removed reaction stop answering; the next answer takes over', async () => {
      const q = tsAt(30);
      const r = tsAt(31);
      const later = tsAt(40);
      const added = tsAt(32);
      await apply(
        [msg(q, 'U1', 'anyone around?'), reply(r, q, 'U2'), react('reaction_added', q, 'U3', added)],
        held,
      );
      expect(await stored(q)).toBe(iso(r));
      await apply([del(r, tsAt(33))], held);
      expect(await stored(q)).toBe(iso(added));
      await apply([react('reaction_removed', q, 'U3', tsAt(34))], held);
      expect(await stored(q)).toBeNull();
      await apply([reply(later, q, 'U5')], held);
      expect(await stored(q)).toBe(iso(later));
    });

    it('a reply and a reaction that arrive before their question count once it does', async () => {
      const q = tsAt(50);
      const r = tsAt(55);
      const at = tsAt(52);
      await apply([reply(r, q, 'U2'), react('reaction_added', q, 'U3', at)], held);
      await apply([msg(q, 'U1', 'where is the doc?')], held);
      expect(await stored(q)).toBe(iso(at));
    });

    it('an edit makes a message a question or stops it being one; a deleted question has no row', async () => {
      const m = tsAt(60);
      const r = tsAt(61);
      await apply([msg(m, 'U1', 'The doc is here'), reply(r, m, 'U2')], held);
      expect(await stored(m)).toBe('none');
      await apply([edit(m, 'U1', 'The doc is here?', tsAt(62))], held);
      expect(await stored(m)).toBe(iso(r));
      await apply([edit(m, 'U1', 'The doc is `here?`', tsAt(63))], held);
      expect(await stored(m)).toBe('none');
      await apply([edit(m, 'U1', 'Can you see it', tsAt(64))], held);
      expect(await stored(m)).toBe(iso(r));
      await apply([del(m, tsAt(65))], held);
      expect(await stored(m)).toBe('none');
    });

    it('the history import (recordMessage with inline reactions) answers as made when the message was posted', async () => {
      const q = tsAt(70);
      await t.ctx.database.db.transaction(async (tx) => {
        const s: IngestScope = { tx, teamId: TEAM, tz: 'UTC', buf: rollupBuffer(), facts: factsWriter() };
        await recordMessage(s, C, {
          ts: q,
          user: 'U1',
          text: 'why is it red?',
          reactions: [{ name: 'eyes', users: ['U1', 'U2'] }],
        });
        await s.facts!.flush(tx);
        await s.buf.flush(tx);
      });
      expect(await stored(q)).toBe(iso(q));
    });
  },
);
