import { wallClock } from '@flywheel/shared/clock';
import type { PollOptionRecord } from './table.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const BAR = 10;

/** `19 Mar 2027, 14:00` in the workspace's timezone. */
export function localTime(at: number, tz: string): string {
  const w = wallClock(at, tz);
  return `${w.day} ${MONTHS[w.month - 1]} ${w.year}, ${pad(w.hour)}:${pad(w.minute)}`;
}

/** Option text is the admin's, shown as text: Slack's control characters are escaped. */
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The poll message in Slack mrkdwn: the question, each option with its emoji, a bar, its votes and share, and
 * how to vote and until when; once closed, the final results.
 */
export function pollText(p: {
  question: string;
  options: PollOptionRecord[];
  counts: ReadonlyMap<number, number>;
  expiresAt: number;
  closed: boolean;
  tz: string;
}): string {
  const total = p.options.reduce((n, _o, i) => n + (p.counts.get(i) ?? 0), 0);
  const lines = p.options.map((o, i) => {
    const n = p.counts.get(i) ?? 0;
    const share = total ? Math.round((n / total) * 100) : 0;
    const filled = total ? Math.round((n / total) * BAR) : 0;
    return `:${o.emoji_code}: *${escape(o.value)}*  \`${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}\` ${n} vote${n === 1 ? '' : 's'} (${share}%)`;
  });
  const votes = `${total} vote${total === 1 ? '' : 's'}`;
  const footer = p.closed
    ? `*This poll is closed.* Final results: ${votes}. Closed ${localTime(p.expiresAt, p.tz)} (${p.tz}).`
    : `_React with an option's emoji to vote (one vote per member; a new choice replaces the old). ${votes} so far. Closes ${localTime(p.expiresAt, p.tz)} (${p.tz})._`;
  return [`:bar_chart: *Poll*`, p.question.trim(), '', ...lines, '', footer].join('\n');
}
