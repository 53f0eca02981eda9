/** Slack-shaped identifiers and timestamps. */

const pad36 = (n: number, width: number): string => n.toString(36).toUpperCase().padStart(width, '0');

/** Team ids look like T0000000001 (T + 10 chars). */
export const teamIdFor = (teamNo: number): string => `T${pad36(teamNo + 1, 10)}`;

/** User ids: U + 2-char team number + 8-char index (so the index can be parsed back). */
export const userIdFor = (teamNo: number, index: number): string => `U${pad36(teamNo, 2)}${pad36(index, 8)}`;
export const channelIdFor = (teamNo: number, index: number): string =>
  `C${pad36(teamNo, 2)}${pad36(index, 8)}`;

/** Parses the index out of a user/channel id made by the functions above, or -1. */
export function indexOfId(id: string, prefix: 'U' | 'C', teamNo: number): number {
  if (id.length !== 11 || id[0] !== prefix || id.slice(1, 3) !== pad36(teamNo, 2)) return -1;
  const n = parseInt(id.slice(3), 36);
  return Number.isFinite(n) ? n : -1;
}

let counter = 0;
/** Random-looking unique ids for things created at run time (F…, V…, Q…, Ev…, D…, B…). */
export function newId(prefix: string, length = 10): string {
  counter = (counter + 1) % 1_000_000;
  const rand = Math.floor(Math.random() * 36 ** 6);
  const body = (pad36(rand, 6) + pad36(counter, 4) + pad36(Date.now() % 36 ** 4, 4)).slice(0, length);
  return prefix + body.padEnd(length, '0');
}

export const randomToken = (bytes = 12): string =>
  Array.from({ length: bytes }, () => Math.floor(Math.random() * 36).toString(36)).join('');

/** Slack ts: "<10-digit seconds>.<6 digits>". */
export const formatTs = (seconds: number, micro: number): string =>
  `${Math.floor(seconds)}.${String(micro).padStart(6, '0')}`;

export const tsSeconds = (ts: string): number => Number(ts.split('.')[0]);

export const isTs = (value: unknown): boolean => typeof value === 'string' && /^\d{10}\.\d{6}$/.test(value);

export const compareTs = (a: string, b: string): number => {
  const [as = '0', am = '0'] = a.split('.');
  const [bs = '0', bm = '0'] = b.split('.');
  return Number(as) - Number(bs) || Number(am) - Number(bm);
};
