import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded database is one process's own: two processes opening one PGlite directory corrupt it, and a backup
 * copied while a server writes is torn. The process that opens it writes its pid beside it (`DATA_DIR/pglite.pid`);
 * another process finds a live pid there and is refused. A pid left by a process that died (kill -9) is taken over.
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly pid: number,
    dir: string,
  ) {
    super(
      `The embedded database in ${dir} is open in another Flywheel process (pid ${pid}). Stop that process first ` +
        `(two processes on one embedded database would corrupt it). If no Flywheel process runs, delete ${dir}.pid.`,
    );
  }
}

/** `DATA_DIR/pglite.pid` for the server's `DATA_DIR/pglite`. */
const lockFile = (pgliteDir: string) => `${path.resolve(pgliteDir)}.pid`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live process other than this one that has the directory open, if any. */
export function pgliteHolder(pgliteDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(lockFile(pgliteDir), 'utf8').trim());
  } catch {
    return undefined;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : undefined;
}

/** Marks the directory as this process's; throws DataDirInUseError when a live process holds it. Returns the release. */
export function lockPglite(pgliteDir: string): () => void {
  const holder = pgliteHolder(pgliteDir);
  if (holder !== undefined) throw new DataDirInUseError(holder, pgliteDir);
  const file = lockFile(pgliteDir);
  fs.writeFileSync(file, String(process.pid), { mode: 0o600 });
  return () => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file);
    } catch {
      // Already gone.
    }
  };
}
