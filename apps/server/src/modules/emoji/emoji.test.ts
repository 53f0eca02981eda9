import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  deliverEvent,
  installThroughOAuth,
  settleEvents,
  slackTestEnv,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { resolveAliases } from './service.ts';

let env: SlackTestEnv;
let user: { token: string; userid: string };
let stranger: { token: string; userid: string };
let teamId: string;
let otherTeam: string;

beforeAll(async () => {
  env = await slackTestEnv({
    workspaces: [
      { seed: 41, members: 6, channels: 2, days: 1 },
      { seed: 42, members: 6, channels: 2, days: 1 },
    ],
  });
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  stranger = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, stranger, { teamId: otherTeam })).statusCode).toBe(200);
}, 120_000);
afterAll(() => env.close());

const emoji = (team = teamId, token = user.token) =>
  env.t.app.inject({ method: 'GET', url: `/api/v0/workspace/emoji/${team}`, headers: bearer(token) });

describe('custom emoji', () => {
  it('answers the workspace’s custom emoji with aliases resolved; kept until Slack says they changed; a failure is none, not an error', async () => {
    const first = await emoji();
    expect(first.statusCode).toBe(200);
    const got = first.json().data as Record<string, string>;
    expect(got.partyparrot).toMatch(/^http:\/\/.+\/avatars\/emoji-partyparrot\.svg$/);
    expect(got.parrot).toBe(got.partyparrot); // an alias takes its target's image
    expect(got).not.toHaveProperty('thumbsup_all'); // an alias of a standard emoji: the browser draws it
    expect(Object.keys(got).sort()).toEqual(['flywheel', 'parrot', 'partyparrot', 'shipit']);

    // Slack now refuses emoji.list: the cached list still answers (no new call was made).
    env.emu.setFaults({ errorRate: 1, errorCode: 'missing_scope', methods: ['emoji.list'] });
    try {
      expect((await emoji()).json().data).toEqual(got);
      // emoji_changed drops the cache: the next read asks Slack, which refuses: no emoji, and no error.
      await deliverEvent(
        env,
        teamId,
        { type: 'emoji_changed', subtype: 'add', name: 'newone', value: 'https://example.com/x.png' },
        'EvEMOJI0001',
      );
      await settleEvents(env);
      const after = await emoji();
      expect(after.statusCode).toBe(200);
      expect(after.json().data).toEqual({});
    } finally {
      env.emu.clearFaults();
    }
  });

  it('another admin’s workspace is refused; no token is 401', async () => {
    expect((await emoji(otherTeam)).statusCode).toBe(403);
    expect(
      (await env.t.app.inject({ method: 'GET', url: `/api/v0/workspace/emoji/${teamId}` })).statusCode,
    ).toBe(401);
  });

  it('resolves alias chains and drops loops and non-URLs', () => {
    expect(
      resolveAliases({
        a: 'https://e.example/a.png',
        b: 'alias:a',
        c: 'alias:b',
        loop1: 'alias:loop2',
        loop2: 'alias:loop1',
        js: 'javascript:alert(1)',
        std: 'alias:thumbsup',
      }),
    ).toEqual({ a: 'https://e.example/a.png', b: 'https://e.example/a.png', c: 'https://e.example/a.png' });
  });
});
