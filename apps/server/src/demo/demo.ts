import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { startEmulatorProcess, type EmulatorProcess } from './emulator-process.ts';
import { startDemoSeed } from './seed.ts';

/**
 * The demo app's credentials, shared with the emulator process. The secrets are generated once per data
 * directory (`$DATA_DIR/demo-slack-app.json`, readable by its owner only): a public constant would let anyone
 * who can reach the server sign Slack events for the demo workspace.
 */
export function demoApp(dataDir: string): {
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  appToken: string;
} {
  const file = path.join(dataDir, 'demo-slack-app.json');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const fresh = {
      clientId: '1111111111.2222222222',
      clientSecret: crypto.randomBytes(24).toString('hex'),
      signingSecret: crypto.randomBytes(24).toString('hex'),
    };
    try {
      fs.writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process wrote it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const app = JSON.parse(fs.readFileSync(file, 'utf8')) as Omit<ReturnType<typeof demoApp>, 'appToken'>;
  // The app-level token for Socket Mode, derived from the secret (files written before it existed have none).
  const appToken = `xapp-1-A0FLYWHEEL1-1111111111-${crypto.createHmac('sha256', app.signingSecret).update('app-level token').digest('hex')}`;
  return { ...app, appToken };
}
/** How much faster than Slack the demo's emulator (and our pacing) runs, so the import takes about a minute. */
const DEMO_TIME_SCALE = 100;

/**
 * With no Slack app configured: start the emulator with two generated workspaces, create the demo
 * administrator, and connect the first workspace through the real install path (authorize page, code,
 * oauth.v2.access, history import), then Add as Admin the same way (the user token: the demo can Send as Admin).
 * The second is left for 'Create Workspace'. Once the import is done, the
 * first demo start seeds the workspace's actions (seed.ts) in the background.
 */
export async function startDemo(ctx: AppContext, serverUrl: string): Promise<EmulatorProcess> {
  const { demo, publicUrl } = ctx.config;
  const { auth, install, workspaces } = ctx.services;
  // History ends at the demo's first start, so every restart serves the same history.
  const endTime = await ctx.services.auth.demoEpoch();
  const app = demoApp(ctx.config.dataDir);
  // Socket Mode (SLACK_SOCKET_MODE=1): the emulator gets no Request URLs at all; events and interactions can only
  // come over the connection the worker opens with the app-level token.
  const socketMode = ctx.config.socketMode;
  const emulator = await startEmulatorProcess(
    {
      SLACK_CLIENT_ID: app.clientId,
      SLACK_CLIENT_SECRET: app.clientSecret,
      SLACK_SIGNING_SECRET: app.signingSecret,
      SLACK_APP_TOKEN: app.appToken,
      EMULATOR_WORKSPACES: '2',
      EMULATOR_MEMBERS: String(demo.members),
      EMULATOR_CHANNELS: String(demo.channels),
      EMULATOR_DAYS: String(demo.days),
      EMULATOR_END_TIME: String(endTime),
      EMULATOR_RATE_LIMITS: 'real',
      // The emulator's time scale multiplies its windows: 1/100 makes its minute last 0.6 s.
      EMULATOR_TIME_SCALE: String(1 / DEMO_TIME_SCALE),
      ...(socketMode
        ? { EMULATOR_SOCKET_MODE: '1' }
        : {
            EMULATOR_EVENTS_URL: `${serverUrl}/slack/events`,
            EMULATOR_INTERACTIVITY_URL: `${serverUrl}/slack/interactivity`,
          }),
      ...(demo.liveIntervalMs > 0 ? { EMULATOR_LIVE_INTERVAL_MS: String(demo.liveIntervalMs) } : {}),
    },
    demo.emulatorPort,
    ctx.logger,
  );
  // The browser reaches the emulator's authorize page on the host people use for Flywheel.
  const browserHost = new URL(publicUrl).hostname;
  ctx.setSlack({
    ...app,
    apiUrl: `${emulator.url}/api/`,
    authorizeUrl: `http://${browserHost}:${demo.emulatorPort}/oauth/v2/authorize`,
    rateScale: DEMO_TIME_SCALE,
  });
  // The emulator checked its events URL (url_verification) as it started, before this server knew the
  // app's signing secret, so the check failed and no event would ever be delivered: check it again now.
  if (!socketMode) await verifyEventsUrl(emulator.url, `${serverUrl}/slack/events`, ctx);

  const userId = await auth.ensureVerifiedAccount({
    email: demo.email,
    password: demo.password,
    username: 'Demo Admin',
    country: 'United States',
  });
  const state = (await fetch(`${emulator.url}/_admin/state`).then((r) => r.json())) as {
    teams: { id: string }[];
  };
  const teamId = state.teams[0]!.id;
  const owner = await primaryOwner(emulator.url, teamId);

  // The browser's part, done by the server for the demo account: the install (bot scopes), then Add as Admin (the
  // user scopes), so that the demo can Send as Admin.
  const authorize = async (teamIdToJoin?: string) => {
    const url = new URL(await install.authorizeUrl(userId, teamIdToJoin));
    const form = new URLSearchParams({
      ...Object.fromEntries(url.searchParams),
      team: teamId,
      installer: owner,
      decision: 'allow',
    });
    const allow = await fetch(`${emulator.url}/oauth/v2/authorize`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    const back = new URL(allow.headers.get('location') ?? '', publicUrl);
    const code = back.searchParams.get('code');
    const step = teamIdToJoin ? 'Add as Admin' : 'install';
    if (!code) throw new Error(`The demo ${step} was not allowed: ${allow.status} ${back}`);
    await install.complete({ code, state: back.searchParams.get('state') ?? '', userId });
  };
  await authorize();
  await authorize(teamId);
  const ws = await workspaces.find(teamId);
  // The demo admin gets the weekly digest (opt-in for everyone else): Mondays 09:00, e-mail and Slack DM.
  await ctx.services.digest.subscribeByDefault(teamId, userId);

  // Said first, then shown on the login page: whoever sees the demo there finds the line in the log already.
  ctx.logger.info(
    { email: demo.email, password: demo.password, workspace: ws?.name, emulator: emulator.url },
    `Demo mode (no SLACK_CLIENT_ID set): log in as ${demo.email} / ${demo.password}`,
  );
  ctx.setPublicConfig({ demoMode: true, demoEmail: demo.email, demoPassword: demo.password });
  // Once per database, after the history import: a few polls, forms, automations, ... made for real (seed.ts).
  // In the background: the login does not wait for it.
  const stopSeed = startDemoSeed(ctx, { teamId, userId, emulatorUrl: emulator.url });
  return {
    url: emulator.url,
    async stop() {
      stopSeed();
      await emulator.stop();
    },
  };
}

/** Has the emulator send url_verification to the events URL again; a failure is logged (no live events). */
async function verifyEventsUrl(emulatorUrl: string, eventsUrl: string, ctx: AppContext): Promise<void> {
  // Slack waits 3 s for the answer; a first request on a busy machine may take longer: tried a few times, as a
  // person presses Retry on the app's settings page.
  for (let attempt = 0; attempt < 5; attempt++) {
    const config = (await fetch(`${emulatorUrl}/_admin/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventsUrl }),
    }).then((r) => r.json())) as { eventsUrlVerified?: boolean };
    if (config.eventsUrlVerified) return;
  }
  ctx.logger.warn({ eventsUrl }, 'The demo emulator could not verify the events URL: no live events');
}

async function primaryOwner(emulatorUrl: string, teamId: string): Promise<string> {
  const members = (await fetch(`${emulatorUrl}/_admin/teams/${teamId}/members?format=json`).then((r) =>
    r.json(),
  )) as {
    id: string;
    is_primary_owner?: boolean;
  }[];
  const owner = members.find((m) => m.is_primary_owner) ?? members[0];
  if (!owner) throw new Error('The demo workspace has no members');
  return owner.id;
}
