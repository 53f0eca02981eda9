import { THREAD_DAY_PRESETS } from '@flywheel/shared/conversations';
import { formatDateTime } from '../../lib/format-date.ts';

/** A message's time as the cards show it: the app's one format, in the browser's timezone. */
export const formatWhen = (ms: number) => formatDateTime(ms);

export type WindowChoice =
  | { kind: 'days'; days: (typeof THREAD_DAY_PRESETS)[number] }
  | { kind: 'custom'; start: string; end: string };

/** The ISO start and end a choice means now (a preset ends now; a custom range as picked, local time). */
export function windowOf(choice: WindowChoice, now = new Date()): { start: string; end: string } {
  if (choice.kind === 'custom')
    return { start: new Date(choice.start).toISOString(), end: new Date(choice.end).toISOString() };
  return { start: new Date(now.getTime() - choice.days * 86_400_000).toISOString(), end: now.toISOString() };
}

/** For custom ranges: both set, start not after end, neither in the future. */
export function customProblem(start: string, end: string, now = new Date()): string | null {
  if (!start || !end) return 'Choose both a start and an end';
  const s = new Date(start);
  const e = new Date(end);
  if (Number.isNaN(s.getTime()) || Number.isNaN(e.getTime())) return 'Choose both a start and an end';
  if (s > now || e > now) return 'Dates cannot be in the future';
  if (s > e) return 'The start must not be after the end';
  return null;
}
