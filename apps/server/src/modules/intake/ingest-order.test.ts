import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedHeaders } from '@flywheel/slack-emulator';
import { signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { typedRows } from '../../db/sql.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

// Slack does not promise delivery order. Each case sends the same events in the order that used to go
// wrong and checks that the stored state is what the events mean, not what arrived last.
let env: SlackTestEnv;
let teamId: string;
let channel: string;
let users: string[];
let seq = 0;
const rows = <T>(q: ReturnType<typeof sql>) => typedRows<T>(env.t.ctx.database.db, q);

beforeAll(async () => {
  env = await slackTestEnv({ workspace: { seed: 11, members: 12, channels: 2, days: 2 } });
  teamId = env.emu.teamIds[0]!;
  const user = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user)).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  await settleEvents(env);
  channel = (
    await rows<{ channel_id: string }>(
      sql`select channel_id from slack_channels where team_id = ${teamId} and not is_private order by name limit 1`,
    )
  )[0]!.channel_id;
  users = (
    await rows<{ member_id: string }>(
      sql`select member_id from slack_members where team_id = ${teamId} and not is_bot and not deleted order by member_id`,
    )
  ).map((r) => r.member_id);
}, 60_000);
afterAll(() => env.close());

async function deliver(...events: any[]) {
  for (const event of events) {
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: teamId,
      event_id: `EvORDER${++seq}${Date.now()}`,
      event_time: Math.floor(Date.now() / 1000),
      event,
    });
    const res = await fetch(`${env.url}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedHeaders(env.emu.app.signingSecret, body, Math.floor(Date.now() / 1000)),
      },
      body,
    });
    expect(res.status).toBe(200);
  }
  await env.t.ctx.services.events.drain();
}

const nowTs = (offsetSeconds = 0) =>
  `${Math.floor(Date.now() / 1000) + offsetSeconds}.${String(++seq).padStart(6, '0')}`;
const reactionsOf = async (member: string) =>
  (
    await rows<{ n: number }>(
      sql`select coalesce(sum(reactions), 0)::int as n from activity_daily where team_id = ${teamId} and member_id = ${member} and channel_id = ${channel}`,
    )
  )[0]!.n;
const messagesOf = async (member: string) =>
  (
    await rows<{ n: number }>(
      sql`select coalesce(sum(messages), 0)::int as n from activity_daily where team_id = ${teamId} and member_id = ${member} and channel_id = ${channel}`,
    )
  )[0]!.n;

describe('events applied in any order', () => {
  it('a reaction that arrives after its message was deleted does not count', async () => {
    const [author, reactor] = [users[0]!, users[1]!];
    const ts = nowTs();
    const before = await reactionsOf(reactor);
    await deliver(
      {
        type: 'message',
        channel,
        channel_type: 'channel',
        user: author,
        text: 'soon gone',
        ts,
        event_ts: ts,
      },
      {
        type: 'message',
        subtype: 'message_deleted',
        channel,
        channel_type: 'channel',
        deleted_ts: ts,
        ts: nowTs(2),
        event_ts: nowTs(2),
      },
      {
        type: 'reaction_added',
        user: reactor,
        reaction: 'eyes',
        item: { type: 'message', channel, ts },
        event_ts: nowTs(1),
      },
    );
    expect(await reactionsOf(reactor)).toBe(before);
  });

  it('a removal that arrives before its addition leaves the reaction removed; a later re-add counts again', async () => {
    const [author, reactor] = [users[2]!, users[3]!];
    const ts = nowTs();
    await deliver({
      type: 'message',
      channel,
      channel_type: 'channel',
      user: author,
      text: 'react to me',
      ts,
      event_ts: ts,
    });
    const before = await reactionsOf(reactor);
    const item = { type: 'message', channel, ts };
    await deliver(
      { type: 'reaction_removed', user: reactor, reaction: 'tada', item, event_ts: nowTs(5) },
      { type: 'reaction_added', user: reactor, reaction: 'tada', item, event_ts: nowTs(3) },
    );
    expect(await reactionsOf(reactor)).toBe(before);
    await deliver({ type: 'reaction_added', user: reactor, reaction: 'tada', item, event_ts: nowTs(8) });
    expect(await reactionsOf(reactor)).toBe(before + 1);
    const [r] = await rows<{ removed_at: string | null }>(
      sql`select removed_at from slack_reactions where team_id = ${teamId} and ts = ${ts} and user_id = ${reactor}`,
    );
    expect(r!.removed_at).toBeNull();
  });

  it('an edit that arrives before its message records the message once, with the edited text', async () => {
    const author = users[4]!;
    const ts = nowTs();
    const before = await messagesOf(author);
    await deliver(
      {
        type: 'message',
        subtype: 'message_changed',
        channel,
        channel_type: 'channel',
        message: { type: 'message', user: author, text: 'edited words', ts },
        ts: nowTs(1),
        event_ts: nowTs(1),
      },
      {
        type: 'message',
        channel,
        channel_type: 'channel',
        user: author,
        text: 'original words',
        ts,
        event_ts: ts,
      },
    );
    expect(await messagesOf(author)).toBe(before + 1);
    const [m] = await rows<{ text: string }>(
      sql`select text from slack_messages where team_id = ${teamId} and channel_id = ${channel} and ts = ${ts}`,
    );
    expect(m!.text).toBe('edited words');
  });

  it('in one batch, edits, deletes and removals see the held inserts they depend on and pass the others', async () => {
    const [author, reactor, other] = [users[5]!, users[6]!, users[7]!];
    const msg = (ts: string, text: string) => ({
      type: 'message',
      channel,
      channel_type: 'channel',
      user: author,
      text,
      ts,
      event_ts: ts,
    });
    const react = (ts: string, user: string, reaction: string, added = true) => ({
      type: added ? 'reaction_added' : 'reaction_removed',
      user,
      reaction,
      item: { type: 'message', channel, ts },
      event_ts: nowTs(1),
    });
    const old = nowTs();
    await deliver(msg(old, 'an older message'), react(old, reactor, 'fire'));
    const [messages, reactions, others] = [
      await messagesOf(author),
      await reactionsOf(reactor),
      await reactionsOf(other),
    ];
    const [a, b, c] = [nowTs(), nowTs(), nowTs()];
    await deliver(
      msg(a, 'first'),
      msg(b, 'second'),
      react(a, reactor, 'thumbsup'),
      react(b, reactor, 'heart'),
      react(old, reactor, 'fire', false), // nothing held about it: applies at once
      react(a, reactor, 'thumbsup', false), // held: written first, then removed
      {
        type: 'message',
        subtype: 'message_changed',
        channel,
        channel_type: 'channel',
        message: { type: 'message', user: author, text: 'second, edited', ts: b },
        ts: nowTs(2),
        event_ts: nowTs(2),
      },
      msg(c, 'third'),
      {
        type: 'message',
        subtype: 'message_deleted',
        channel,
        channel_type: 'channel',
        deleted_ts: c,
        ts: nowTs(3),
      },
      react(a, other, 'eyes'),
    );
    expect(await messagesOf(author)).toBe(messages + 2);
    expect(await reactionsOf(reactor)).toBe(reactions + 1 - 1);
    expect(await reactionsOf(other)).toBe(others + 1);
    const texts = await rows<{ ts: string; text: string; deleted: boolean }>(
      sql`select ts, text, deleted_at is not null as deleted from slack_messages
        where team_id = ${teamId} and channel_id = ${channel} and ts in (${a}, ${b}, ${c}) order by ts`,
    );
    expect(texts).toEqual([
      { ts: a, text: 'first', deleted: false },
      { ts: b, text: 'second, edited', deleted: false },
      { ts: c, text: 'third', deleted: true },
    ]);
  });

  it('an older user object never overwrites a newer one (deactivation then a late team_join)', async () => {
    const id = `UORDER${seq}`;
    const t = Math.floor(Date.now() / 1000);
    const user = (deleted: boolean, updated: number, name: string) => ({
      id,
      team_id: teamId,
      name: 'late',
      real_name: name,
      deleted,
      updated,
      profile: { real_name: name, display_name: '' },
    });
    await deliver(
      { type: 'user_change', user: user(true, t + 10, 'Late Leaver') },
      { type: 'team_join', user: user(false, t, 'Late Joiner') },
    );
    const [m] = await rows<{ deleted: boolean; real_name: string }>(
      sql`select deleted, real_name from slack_members where team_id = ${teamId} and member_id = ${id}`,
    );
    expect(m).toEqual({ deleted: true, real_name: 'Late Leaver' });
  });

  it('a rename that arrives before the channel_created keeps the new name', async () => {
    const id = `CORDER${seq}`;
    await deliver(
      { type: 'channel_rename', channel: { id, name: 'new-name', created: 1 } },
      { type: 'channel_created', channel: { id, name: 'old-name', created: 1, creator: users[0] } },
    );
    const [c] = await rows<{ name: string }>(
      sql`select name from slack_channels where team_id = ${teamId} and channel_id = ${id}`,
    );
    expect(c!.name).toBe('new-name');
  });
});
