import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// The real server (built SPA + API + workers) on a fresh embedded database, driven in Debian's Chromium.
const port = Number(process.env.E2E_PORT ?? 3100);
const emulatorPort = Number(process.env.E2E_EMULATOR_PORT ?? 3199);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-e2e-'));
export const baseURL = `http://localhost:${port}`;
/** The demo's Slack emulator (the server starts it: no SLACK_CLIENT_ID is set). */
export const emulatorURL = `http://localhost:${emulatorPort}`;
/**
 * A second demo server in Socket Mode (SLACK_SOCKET_MODE=1): its emulator has no Request URLs, so every event and
 * interaction reaches it over the WebSocket its worker opens (socket-mode.spec.ts). Ports: E2E_PORT + 2 and
 * E2E_EMULATOR_PORT + 2 unless E2E_SOCKET_PORT / E2E_SOCKET_EMULATOR_PORT say otherwise.
 */
const socketPort = Number(process.env.E2E_SOCKET_PORT ?? port + 2);
const socketEmulatorPort = Number(process.env.E2E_SOCKET_EMULATOR_PORT ?? emulatorPort + 2);
const socketDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-e2e-socket-'));

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
  // One test at a time: the specs share one server on embedded PGlite (one connection), so two workers mostly
  // waited on each other and on two browsers competing for the cores (E2E_WORKERS to try more).
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  outputDir: './test-results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
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
    {
      command: 'node ../node_modules/tsx/dist/cli.mjs ../apps/server/src/main.ts',
      url: `${baseURL}/api/health`,
      timeout: 90_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseURL,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        LOGIN_MAX_PER_IP: '1000',
        // Every spec signs its accounts up from this one machine.
        MAIL_MAX_PER_CLIENT: '1000',
        DEV_OUTBOX: 'true',
        // Demo mode with small generated workspaces, so the history import finishes in seconds.
        DEMO_EMULATOR_PORT: String(emulatorPort),
        DEMO_MEMBERS: '80',
        DEMO_CHANNELS: '6',
        DEMO_DAYS: '14',
        DEMO_LIVE_INTERVAL_MS: '0',
      },
    },
    {
      command: 'node ../node_modules/tsx/dist/cli.mjs ../apps/server/src/main.ts',
      url: `http://localhost:${socketPort}/api/health`,
      timeout: 90_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(socketPort),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://localhost:${socketPort}`,
        DATA_DIR: socketDataDir,
        LOG_LEVEL: 'warn',
        LOGIN_MAX_PER_IP: '1000',
        MAIL_MAX_PER_CLIENT: '1000',
        DEV_OUTBOX: 'true',
        SLACK_SOCKET_MODE: '1',
        DEMO_EMULATOR_PORT: String(socketEmulatorPort),
        DEMO_MEMBERS: '40',
        DEMO_CHANNELS: '4',
        DEMO_DAYS: '5',
        DEMO_LIVE_INTERVAL_MS: '0',
      },
    },
  ],
});
