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
import { INGESTED_EVENT_TYPES } from '../modules/workspace-data/ingest.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { bearer, signedInUser } from '../testing/factories.ts';
import { BOT_SCOPES, USER_SCOPES } from './client.ts';
import { handledEventTypes, slackAppManifest, subscriptionsOf } from './manifest.ts';

const src = path.join(REPO_ROOT, 'apps/server/src');
const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });

describe('the Slack app manifest is generated from the code', () => {
  it("lists every event workspace-data's applyEvent handles (its switch's cases)", () => {
    const code = fs.readFileSync(path.join(src, 'modules/workspace-data/ingest.ts'), 'utf8');
    const body = code.slice(code.indexOf('export async function applyEvent'));
    const cases = [...body.matchAll(/^\s+case '([a-z_]+)':/gm)].map((m) => m[1]);
    expect([...INGESTED_EVENT_TYPES].sort()).toEqual([...new Set(cases)].sort());
  });

  it("subscribes to every handled event (pins included) and asks for each event's scopes", () => {
    const types = handledEventTypes();
    expect(types).toEqual(expect.arrayContaining(['pin_added', 'pin_removed', 'team_join', 'message']));
    const { events, scopes } = subscriptionsOf(types);
    const manifest = slackAppManifest('https://flywheel.example.com');
    expect(manifest.settings?.event_subscriptions?.bot_events).toEqual(events);
    for (const scope of scopes) expect(BOT_SCOPES, `the scope of a handled event: ${scope}`).toContain(scope);
    expect(() => subscriptionsOf(['some_new_event'])).toThrow(/No Slack subscription known/);
  });

  it('asks for the scope of every Slack method the server calls', () => {
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
    const granted = new Set([...BOT_SCOPES, ...USER_SCOPES]);
    for (const m of called) {
      const scope = methods[m as keyof typeof methods]!.scope;
      if (typeof scope === 'string') expect(granted.has(scope), `${m} needs ${scope}`).toBe(true);
    }
  });

  it('slack-app-manifest.json (committed, for people who read before they run) is the generated one', () => {
    const committed = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'slack-app-manifest.json'), 'utf8'));
    expect(committed).toEqual(slackAppManifest('https://flywheel.example.com'));
  });
});

describe('the manifest of a Socket Mode app', () => {
  it('turns socket_mode_enabled on and has no request URLs; the rest is the HTTP one', () => {
    const http = slackAppManifest('https://flywheel.example.com');
    const socket = slackAppManifest('https://flywheel.example.com', { socketMode: true });
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
  });
});
