import type { Db } from '../../client.ts';

/**
 * A repository statement kept in `<file>.sql`: `run` calls the repository with fixed arguments, and every
 * statement it sends is written down (queries.test.ts). `seed` (optional) runs before it, unrecorded: the rows a
 * method needs to send all its statements (a move of a task that is not there stops after its first read).
 * `name` is `factory.method`, or `factory.method (what differs)` for another branch of the same method; a
 * function outside a factory goes by its own name.
 */
export type QueryCase = {
  file: string;
  name: string;
  seed?(db: Db): Promise<unknown>;
  run(db: Db): Promise<unknown>;
};

/** The workspace every case reads and writes. */
export const T = 'T0SNAPSHOT';
/** A workspace whose standing windows end on DAY (fixture.ts), for the reads of such a window. */
export const TW = 'T0WINDOWS';
/** The clock of the run: queries.test.ts fixes `new Date()` to it, so times a repository takes itself are fixed. */
export const AT = new Date('2026-01-15T12:00:00.000Z');
export const LATER = new Date('2026-01-15T12:05:00.000Z');
export const DAY = '2026-01-15';
