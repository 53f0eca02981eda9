import { parseArgs } from 'node:util';
import { startEmulator } from './emulator.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    seed: { type: 'string' },
    members: { type: 'string' },
    channels: { type: 'string' },
    days: { type: 'string' },
    messages: { type: 'string' },
    workspaces: { type: 'string' },
    'events-url': { type: 'string' },
    'interactivity-url': { type: 'string' },
    'rate-limits': { type: 'string' },
    'time-scale': { type: 'string' },
    'non-marketplace': { type: 'boolean' },
    live: { type: 'string' },
    'auto-install': { type: 'boolean' },
    'token-rotation': { type: 'string' },
  },
});
const env = process.env;
const num = (flag: string | undefined, name: string, dflt?: number): number | undefined => {
  const raw = flag ?? env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got "${raw}"`);
  return n;
};

const count = num(values.workspaces, 'EMULATOR_WORKSPACES', 1) ?? 1;
const base = {
  seed: num(values.seed, 'EMULATOR_SEED', 1) ?? 1,
  members: num(values.members, 'EMULATOR_MEMBERS', 500),
  channels: num(values.channels, 'EMULATOR_CHANNELS', 20),
  days: num(values.days, 'EMULATOR_DAYS', 120),
  messages: num(values.messages, 'EMULATOR_MESSAGES'),
  // Epoch seconds where generated history ends (default: now). A fixed value makes restarts identical.
  endTime: num(undefined, 'EMULATOR_END_TIME'),
};
const live = num(values.live, 'EMULATOR_LIVE_INTERVAL_MS');
// Seconds a rotating access token lives (Slack: 43200); unset or 0: tokens never expire.
const rotation = num(values['token-rotation'], 'EMULATOR_TOKEN_ROTATION_SECONDS');
const emulator = await startEmulator({
  port: num(values.port, 'EMULATOR_PORT', 3999),
  workspaces: Array.from({ length: count }, (_, i) => ({
    ...base,
    seed: base.seed + i,
    ...(base.endTime ? { endTime: base.endTime } : {}),
  })),
  app: {
    ...(env.SLACK_CLIENT_ID ? { clientId: env.SLACK_CLIENT_ID } : {}),
    ...(env.SLACK_CLIENT_SECRET ? { clientSecret: env.SLACK_CLIENT_SECRET } : {}),
    ...(env.SLACK_SIGNING_SECRET ? { signingSecret: env.SLACK_SIGNING_SECRET } : {}),
    // The app-level token for Socket Mode (apps.connections.open); one is made up when not given.
    ...(env.SLACK_APP_TOKEN ? { appToken: env.SLACK_APP_TOKEN } : {}),
  },
  // Socket Mode from the start (events wait for the app's connection instead of going to a Request URL).
  socketMode: { enabled: env.EMULATOR_SOCKET_MODE === '1' },
  eventsUrl: values['events-url'] ?? env.EMULATOR_EVENTS_URL,
  interactivityUrl: values['interactivity-url'] ?? env.EMULATOR_INTERACTIVITY_URL,
  rateLimits: {
    profile: (values['rate-limits'] ?? env.EMULATOR_RATE_LIMITS ?? 'real') === 'off' ? 'off' : 'real',
    timeScale: num(values['time-scale'], 'EMULATOR_TIME_SCALE', 1),
    nonMarketplace: values['non-marketplace'] ?? env.EMULATOR_NON_MARKETPLACE === '1',
  },
  ...(rotation ? { tokenRotation: { expiresInSeconds: rotation } } : {}),
  autoInstall: values['auto-install'] ?? env.EMULATOR_AUTO_INSTALL === '1',
  ...(live ? { live: { intervalMs: live } } : {}),
});

console.log(`Slack emulator on ${emulator.url}`);
console.log(`  Web API:       ${emulator.apiUrl}`);
console.log(`  OAuth:         ${emulator.authorizeUrl}?client_id=${emulator.app.clientId}&scope=...`);
console.log(`  Member page:   ${emulator.url}/`);
console.log(`  Ground truth:  ${emulator.url}/_admin/state`);
console.log(`  Socket Mode:   app-level token ${emulator.app.appToken} (apps.connections.open)`);
for (const id of emulator.teamIds) {
  const install = emulator.truth(id).install();
  if (install) console.log(`  ${id} bot token: ${install.botToken}`);
}
const stop = async (): Promise<void> => {
  await emulator.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// Run as another process's child (the demo): stop when that process goes, even if it was killed outright, so
// the port is free for its next start. Its end of our stdin pipe closes when it dies.
if (env.EMULATOR_EXIT_WITH_PARENT === '1') {
  process.stdin.on('end', () => void stop());
  process.stdin.on('error', () => void stop());
  process.stdin.resume();
}
