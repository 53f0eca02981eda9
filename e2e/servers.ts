/**
 * Where the e2e suite's servers listen. Every worker has its own server (with its own demo emulator and embedded
 * database), so specs in two workers never share a database: slot N (Playwright's TEST_PARALLEL_INDEX, 0 in the
 * runner) listens on E2E_PORT + 10 N and its emulator on E2E_EMULATOR_PORT + 10 N. The Socket Mode demo
 * (socket-mode.spec.ts) is one more server, on E2E_PORT + 2 and E2E_EMULATOR_PORT + 2 unless E2E_SOCKET_PORT /
 * E2E_SOCKET_EMULATOR_PORT say otherwise.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const emulatorPort = Number(process.env.E2E_EMULATOR_PORT ?? 3199);

/**
 * How many workers (and servers): E2E_WORKERS, else 1. On a 2-core machine two workers were slower, not faster
 * (a clean-clone CI: 12.6 min against 10.6 with one): each worker's server, browser and demo compete for the same
 * cores. More cores: more workers.
 */
export const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));
/** This process's slot: a worker's parallel index (stable when a worker is replaced after a failure). */
export const SLOT = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

export function serverOf(slot: number) {
  const p = port + 10 * slot;
  const e = emulatorPort + 10 * slot;
  return { port: p, emulatorPort: e, baseURL: `http://localhost:${p}`, emulatorURL: `http://localhost:${e}` };
}

/** This worker's server. */
export const server = serverOf(SLOT);

const socketPort = Number(process.env.E2E_SOCKET_PORT ?? port + 2);
const socketEmulatorPort = Number(process.env.E2E_SOCKET_EMULATOR_PORT ?? emulatorPort + 2);
export const socketServer = {
  port: socketPort,
  emulatorPort: socketEmulatorPort,
  baseURL: `http://localhost:${socketPort}`,
  emulatorURL: `http://localhost:${socketEmulatorPort}`,
};
