import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTeamMethods } from '@flywheel/slack-emulator/web-api/auth-team';
import { chatMethods } from '@flywheel/slack-emulator/web-api/chat';
import { conversationMethods } from '@flywheel/slack-emulator/web-api/conversations';
import { fileMethods } from '@flywheel/slack-emulator/web-api/files';
import { reactionPinMethods } from '@flywheel/slack-emulator/web-api/reactions-pins';
import { userMethods } from '@flywheel/slack-emulator/web-api/users';
import { viewMethods } from '@flywheel/slack-emulator/web-api/views';
import { REPO_ROOT } from '../config.ts';
import { modules } from '../modules/index.ts';
import { INGESTED_EVENT_TYPES } from '../modules/workspace-data/ingest.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { bearer, signedInUser } from '../testing/factories.ts';
import { BOT_SCOPES, USER_SCOPES, scopeReasons } from './scopes.ts';
import { handledEventTypes, slackAppManifest, subscriptionsOf } from './manifest.ts';

const src = path.join(REPO_ROOT, 'apps/server/src');
const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });

/** The emulator's method table (each method's scope), the server's source, and the methods it calls. */
function calledMethods() {
  const methods = {
    ...authTeamMethods,
    ...userMethods,
    ...conversationMethods,
    ...chatMethods(new Map()),
    ...reactionPinMethods,
    ...fileMethods,
    ...viewMethods,
  };
  const code = sources(src)
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');
  const called = Object.keys(methods).filter((m) => code.includes(`.${m}(`) || code.includes(`'${m}'`));
  return { methods, code, called };
}

describe('the Slack app manifest is generated from the code', () => {
  it("lists every event workspace-data's applyEvent handles (its switch's cases)", () => {
    const code = fs.readFileSync(path.join(src, 'modules/workspace-data/ingest.ts'), 'utf8');
    const body = code.slice(code.indexOf('export async function applyEvent'));
    const cases = [...body.matchAll(/^\s+case '([a-z_]+)':/gm)].map((m) => m[1]);
    expect([...INGESTED_EVENT_TYPES].sort()).toEqual([...new Set(cases)].sort());
  });

  it("subscribes to every handled event (pins included) and asks for each event's scopes", () => {
    const types = handledEventTypes(modules);
    expect(types).toEqual(expect.arrayContaining(['pin_added', 'pin_removed', 'team_join', 'message']));
    const { events, scopes } = subscriptionsOf(types);
    const manifest = slackAppManifest('https://flywheel.example.com', {
      eventTypes: handledEventTypes(modules),
    });
    expect(manifest.settings?.event_subscriptions?.bot_events).toEqual(events);
    for (const scope of scopes) expect(BOT_SCOPES, `the scope of a handled event: ${scope}`).toContain(scope);
    expect(() => subscriptionsOf(['some_new_event'])).toThrow(/No Slack subscription known/);
  });

  it('asks for the scope of every Slack method the server calls', () => {
    const { methods, called } = calledMethods();
    // The calls the product is known to make (a regression in the scan would find none).
    expect(called).toEqual(
      expect.arrayContaining([
        'chat.postMessage',
        'conversations.history',
        'users.list',
        'pins.add',
        'views.open',
      ]),
    );
    const granted = new Set<string>([...BOT_SCOPES, ...USER_SCOPES]);
    for (const m of called) {
      const scope = methods[m as keyof typeof methods]!.scope;
      if (typeof scope === 'string') expect(granted.has(scope), `${m} needs ${scope}`).toBe(true);
    }
  });

  it('asks for no scope nothing needs: each is a handled event’s, a called method’s, or widens a call the code makes', () => {
    const { methods, code, called } = calledMethods();
    // Methods whose scope depends on the conversation (public, private, DM) or the token: Slack's documented sets.
    const BY_CONVERSATION: Record<string, string[]> = {
      'conversations.history': ['channels:history', 'groups:history', 'im:history'],
      'conversations.replies': ['channels:history', 'groups:history', 'im:history'],
      'conversations.list': ['channels:read', 'groups:read'],
      'conversations.members': ['channels:read', 'groups:read'],
      'conversations.info': ['channels:read', 'groups:read'],
      'users.conversations': ['channels:read', 'groups:read'],
      'conversations.join': ['channels:join'],
      'conversations.open': ['im:write'],
    };
    // Scopes that widen a call rather than gate a method, each with what in the code uses it.
    const WIDENS: Record<string, string> = {
      'chat:write.customize': 'icon_url', // a named bot's username and icon on chat.postMessage
      'chat:write.public': "'chat.postMessage'", // posting in a public channel the bot has not joined
      'users:read.email': 'm.email', // members' e-mail addresses in users.list
    };
    const needed = new Set<string>(subscriptionsOf(handledEventTypes(modules)).scopes);
    for (const m of called) {
      const scope = methods[m as keyof typeof methods]!.scope;
      if (typeof scope === 'string') needed.add(scope);
      for (const s of BY_CONVERSATION[m] ?? []) needed.add(s);
    }
    for (const [scope, use] of Object.entries(WIDENS)) if (code.includes(use)) needed.add(scope);
    for (const scope of BOT_SCOPES) expect(needed.has(scope), `bot scope ${scope} is not needed`).toBe(true);
    for (const scope of USER_SCOPES)
      expect(needed.has(scope), `user scope ${scope} is not needed`).toBe(true);
    // Each with its reason (the manifest page shows them).
    for (const { scope, reason } of [...scopeReasons().bot, ...scopeReasons().user])
      expect(reason.length, `a reason for ${scope}`).toBeGreaterThan(20);
  });

  it('slack-app-manifest.json (committed, for people who read before they run) is the generated one', () => {
    const committed = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'slack-app-manifest.json'), 'utf8'));
    expect(committed).toEqual(
      slackAppManifest('https://flywheel.example.com', { eventTypes: handledEventTypes(modules) }),
    );
  });
});

describe('the manifest of a Socket Mode app', () => {
  it('turns socket_mode_enabled on and has no request URLs; the rest is the HTTP one', () => {
    const http = slackAppManifest('https://flywheel.example.com', { eventTypes: handledEventTypes(modules) });
    const socket = slackAppManifest('https://flywheel.example.com', {
      socketMode: true,
      eventTypes: handledEventTypes(modules),
    });
    expect(http.settings?.socket_mode_enabled).toBe(false);
    expect(socket.settings?.socket_mode_enabled).toBe(true);
    expect(socket.settings?.event_subscriptions).toEqual({
      bot_events: http.settings?.event_subscriptions?.bot_events,
    });
    expect(socket.settings?.interactivity).toEqual({ is_enabled: true });
    expect(JSON.stringify(socket)).not.toContain('/slack/');
    expect(socket.oauth_config).toEqual(http.oauth_config);
  });

  it('GET /api/v0/slack/manifest answers the Socket Mode variant when SLACK_APP_TOKEN is set', async () => {
    const t = await buildTestApp({
      PUBLIC_URL: 'https://community.example.org',
      SLACK_APP_TOKEN: 'xapp-1-A1-2-x',
    });
    try {
      const user = await signedInUser(t);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v0/slack/manifest',
        headers: bearer(user.token),
      });
      expect(res.statusCode).toBe(200);
      const { manifest } = res.json();
      expect(manifest.settings.socket_mode_enabled).toBe(true);
      expect(manifest.settings.event_subscriptions.request_url).toBeUndefined();
      expect(manifest.settings.interactivity).toEqual({ is_enabled: true });
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('GET /api/v0/slack/manifest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ PUBLIC_URL: 'https://community.example.org' });
  });
  afterAll(() => t.close());

  it("answers a signed-in user with this installation's URLs and Slack's create-from-manifest link; 401 otherwise", async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v0/slack/manifest' })).statusCode).toBe(401);
    const user = await signedInUser(t);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v0/slack/manifest',
      headers: bearer(user.token),
    });
    expect(res.statusCode).toBe(200);
    const { manifest, create_url } = res.json();
    expect(manifest.oauth_config.redirect_urls).toEqual(['https://community.example.org/installworkspace']);
    expect(manifest.settings.event_subscriptions.request_url).toBe(
      'https://community.example.org/slack/events',
    );
    expect(manifest.settings.interactivity.request_url).toBe(
      'https://community.example.org/slack/interactivity',
    );
    const url = new URL(create_url);
    expect(url.origin + url.pathname).toBe('https://api.slack.com/apps');
    expect(JSON.parse(url.searchParams.get('manifest_json')!)).toEqual(manifest);
    // No Slack app configured: the demo runs; the page lists the credentials to set, none set yet, in order.
    const { setup, scopes } = res.json();
    expect(setup.mode).toBe('demo');
    expect(setup.public_url).toBe('https://community.example.org');
    expect(setup.credentials.map((c: { name: string; set: boolean }) => [c.name, c.set])).toEqual([
      ['PUBLIC_URL', true],
      ['SLACK_CLIENT_ID', false],
      ['SLACK_CLIENT_SECRET', false],
      ['SLACK_SIGNING_SECRET', false],
      ['SLACK_APP_TOKEN', false],
    ]);
    expect(scopes.bot.map((s: { scope: string }) => s.scope)).toEqual(manifest.oauth_config.scopes.bot);
    expect(scopes.user.map((s: { scope: string }) => s.scope)).toEqual(manifest.oauth_config.scopes.user);
  });

  it('with a Slack app configured: says so credential by credential, and never answers a secret', async () => {
    const configured = await buildTestApp({
      PUBLIC_URL: 'https://community.example.org',
      SLACK_CLIENT_ID: '1234.5678',
      SLACK_CLIENT_SECRET: 'secret-client-value-0123456789',
      SLACK_SIGNING_SECRET: 'secret-signing-value-0123456789',
    });
    try {
      const user = await signedInUser(configured);
      const res = await configured.app.inject({
        method: 'GET',
        url: '/api/v0/slack/manifest',
        headers: bearer(user.token),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().setup.mode).toBe('slack');
      const creds = res.json().setup.credentials as { name: string; set: boolean; required: boolean }[];
      expect(creds.filter((c) => c.required).every((c) => c.set)).toBe(true);
      // Socket Mode is optional: without an app-level token it is not set.
      expect(creds.find((c) => c.name === 'SLACK_APP_TOKEN')).toMatchObject({ set: false, required: false });
      expect(res.body).not.toContain('secret-client-value');
      expect(res.body).not.toContain('secret-signing-value');
    } finally {
      await configured.close();
    }
  });
});
