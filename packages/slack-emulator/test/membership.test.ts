import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRaw, emulator, type Emu } from './helpers.ts';
import { loadWebApiSchemas } from './schemas.ts';

const schemas = loadWebApiSchemas();
let emu: Emu;
let bot: string;
let user: string;
let installer: string;
let team: string;

type Conversation = { id: string; is_private?: boolean; is_member?: boolean; num_members?: number };

/** Calls a method, expects ok:true, and validates the raw body against the spec's 200 schema. */
async function conform(method: string, args: Record<string, unknown>, token: string) {
  const { status, body } = await callRaw(emu, method, args, token);
  expect(status).toBe(200);
  expect(body, `${method} -> ${JSON.stringify(body).slice(0, 300)}`).toMatchObject({ ok: true });
  const validate = schemas.forMethod(method);
  expect(validate, `the spec has ${method}`).toBeDefined();
  expect(validate!(body), `${method}: ${JSON.stringify(validate!.errors?.slice(0, 3))}`).toBe(true);
  return body;
}

/** Every page of users.conversations (public and private channels). */
async function channelsOf(token: string, args: Record<string, unknown> = {}): Promise<Conversation[]> {
  const out: Conversation[] = [];
  let cursor = '';
  for (let page = 0; page < 50; page++) {
    const body = await conform(
      'users.conversations',
      { types: 'public_channel,private_channel', limit: 2, ...args, ...(cursor ? { cursor } : {}) },
      token,
    );
    out.push(...(body.channels as Conversation[]));
    cursor = (body.response_metadata as { next_cursor: string }).next_cursor;
    if (!cursor) return out;
  }
  throw new Error('users.conversations did not end');
}

beforeAll(async () => {
  emu = await emulator();
  // Flywheel's admins authorize with channels:read and groups:read among their user scopes.
  const install = emu.install(undefined, {
    userScopes: ['chat:write', 'channels:read', 'groups:read', 'im:read', 'users:read'],
  });
  bot = install.botToken;
  user = install.userToken as string;
  team = emu.truth().team.id;
  installer = (await callRaw(emu, 'auth.test', {}, user)).body.user_id as string;
});
afterAll(() => emu.close());

describe('users.conversations (Slack: the conversations a user is in)', () => {
  it("lists the calling user's channels, page by page, without is_member or num_members", async () => {
    const truth = emu
      .truth()
      .channels()
      .filter((c) => !c.is_im && (c.members as string[]).includes(installer))
      .map((c) => c.id)
      .sort();
    expect(truth.length).toBeGreaterThan(1);
    const listed = await channelsOf(user);
    expect(listed.map((c) => c.id).sort()).toEqual(truth);
    for (const c of listed) {
      expect(c).not.toHaveProperty('is_member');
      expect(c).not.toHaveProperty('num_members');
    }
  });

  it('follows joins and leaves at once', async () => {
    const outside = emu
      .truth()
      .channels()
      .find((c) => !c.is_im && !c.is_private && !(c.members as string[]).includes(installer));
    expect(outside).toBeDefined();
    const channel = outside!.id as string;
    const ids = async () => (await channelsOf(user)).map((c) => c.id);
    expect(await ids()).not.toContain(channel);
    emu.team(team).joinChannel(channel, installer);
    expect(await ids()).toContain(channel);
    emu.team(team).leaveChannel(channel, installer);
    expect(await ids()).not.toContain(channel);
  });

  it("another user's: public channels by their membership, private ones only where the caller is too", async () => {
    const channels = emu.truth().channels();
    const member = channels
      .flatMap((c) => (c.is_im ? [] : (c.members as string[])))
      .find(
        (m) => m !== installer && channels.some((c) => c.is_private && (c.members as string[]).includes(m)),
      );
    expect(member).toBeDefined();
    const listed = (await channelsOf(user, { user: member })).map((c) => c.id).sort();
    const expected = channels
      .filter(
        (c) =>
          !c.is_im &&
          (c.members as string[]).includes(member!) &&
          (!c.is_private || (c.members as string[]).includes(installer)),
      )
      .map((c) => c.id)
      .sort();
    expect(listed).toEqual(expected);
  });

  it('answers as Slack does to a wrong user, type or missing scope', async () => {
    expect((await callRaw(emu, 'users.conversations', { user: 'U0NOBODY' }, user)).body).toMatchObject({
      ok: false,
      error: 'user_not_found',
    });
    expect((await callRaw(emu, 'users.conversations', { types: 'wrong' }, user)).body).toMatchObject({
      ok: false,
      error: 'invalid_types',
    });
    const narrow = emu.install(team, { userScopes: ['chat:write'] });
    const refused = await callRaw(emu, 'users.conversations', {}, narrow.userToken as string);
    expect(refused.body).toMatchObject({ ok: false, error: 'missing_scope', needed: 'channels:read' });
  });
});

describe("a user's DM with themselves (chat.postMessage with their own user id)", () => {
  it('lands in their self-DM, not in a DM they have with someone else', async () => {
    const other = emu
      .truth()
      .channels()
      .flatMap((c) => (c.is_im ? [] : (c.members as string[])))
      .find((m) => m !== installer)!;
    const toOther = await conform('chat.postMessage', { channel: other, text: 'to someone else' }, user);
    const toSelf = await conform('chat.postMessage', { channel: installer, text: 'a note to self' }, user);
    expect(toSelf.channel).not.toBe(toOther.channel);
    const self = emu
      .truth()
      .channels()
      .find((c) => c.id === toSelf.channel);
    expect(self).toMatchObject({ is_im: true, members: [installer] });
    // The bot's DM with the same person is yet another conversation.
    const fromBot = await conform('chat.postMessage', { channel: installer, text: 'from the app' }, bot);
    expect([toSelf.channel, toOther.channel]).not.toContain(fromBot.channel);
  });
});
