import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { SLOT, WORKERS, serverOf, socketServer } from './servers.ts';

// The real server (built SPA + API + workers, apps/server/dist) on a fresh embedded database, driven in Debian's
// Chromium: one server with its own demo emulator and database per worker (servers.ts), so that two workers never
// share a database or wait on each other's jobs.
/** A fresh data directory; only the runner (which starts the servers) makes them, not each worker's config load. */
const freshDir = (name: string) =>
  process.env.TEST_PARALLEL_INDEX === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), name)) : '';
const serverCommand = 'node ../apps/server/dist/main.js';

/**
 * The browser: Chromium's headless shell (Debian's chromium-headless-shell, which scripts/ensure-chromium.sh
 * installs), built for headless runs without the full browser's UI processes. Else the full browser's binary:
 * Debian's /usr/bin/chromium is a shell script that adds flags from /etc/chromium.d (GPU rasterization among them),
 * the browser itself is /usr/lib/chromium/chromium. CHROMIUM_PATH overrides both.
 */
function chromiumBinary(): string {
  for (const candidate of ['/usr/lib/chromium/chromium-headless-shell', '/usr/lib/chromium/chromium'])
    if (fs.existsSync(candidate)) return candidate;
  return '/usr/bin/chromium';
}

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // A spec file runs in one worker, on that worker's own server (servers.ts); E2E_WORKERS sets how many (1 by
  // default, see servers.ts).
  workers: WORKERS,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  outputDir: './test-results',
  use: {
    // In a worker, its own server (the config is loaded again in every worker, with its slot set).
    baseURL: serverOf(SLOT).baseURL,
    // A failed test keeps its trace: each action's DOM snapshot, network and console. Not the screencast
    // (E2E_TRACE_SCREENSHOTS=1 adds it): its frames kept Chromium's compositor busy for every test, passing or not,
    // about a quarter of the suite's time on 2 cores. A failure's own screenshot is still taken.
    trace: {
      mode: 'retain-on-failure',
      screenshots: process.env.E2E_TRACE_SCREENSHOTS === '1',
      snapshots: true,
      sources: true,
    },
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? chromiumBinary(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        // Debian's launcher script turns GPU rasterization on, which headless runs in a software GPU process that
        // took ~40% of a core per browser: off (and the real binary is preferred, see chromiumBinary).
        '--disable-gpu-rasterization',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    ...Array.from({ length: WORKERS }, (_, slot) => {
      const server = serverOf(slot);
      return {
        command: serverCommand,
        url: `${server.baseURL}/api/health`,
        timeout: 90_000,
        reuseExistingServer: false,
        stdout: 'ignore' as const,
        stderr: 'pipe' as const,
        env: {
          PORT: String(server.port),
          HOST: '127.0.0.1',
          PUBLIC_URL: server.baseURL,
          DATA_DIR: freshDir(`flywheel-e2e-${slot}-`),
          LOG_LEVEL: 'warn',
          LOGIN_MAX_PER_IP: '1000',
          // Every spec signs its accounts up from this one machine.
          MAIL_MAX_PER_CLIENT: '1000',
          DEV_OUTBOX: 'true',
          // The test clock (apps/server/src/modules/activity/dev-clock.ts): levels.spec.ts moves the day the
          // engagement levels are computed for, as if days passed. Refused in production.
          DEV_CLOCK: 'true',
          // Demo mode with small generated workspaces, so the history import finishes in seconds.
          DEMO_EMULATOR_PORT: String(server.emulatorPort),
          DEMO_MEMBERS: '80',
          DEMO_CHANNELS: '6',
          DEMO_DAYS: '14',
          DEMO_LIVE_INTERVAL_MS: '0',
        },
      };
    }),
    {
      command: serverCommand,
      url: `${socketServer.baseURL}/api/health`,
      timeout: 90_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(socketServer.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: socketServer.baseURL,
        DATA_DIR: freshDir('flywheel-e2e-socket-'),
        LOG_LEVEL: 'warn',
        LOGIN_MAX_PER_IP: '1000',
        MAIL_MAX_PER_CLIENT: '1000',
        DEV_OUTBOX: 'true',
        SLACK_SOCKET_MODE: '1',
        DEMO_EMULATOR_PORT: String(socketServer.emulatorPort),
        DEMO_MEMBERS: '40',
        DEMO_CHANNELS: '4',
        DEMO_DAYS: '5',
        DEMO_LIVE_INTERVAL_MS: '0',
      },
    },
  ],
});
