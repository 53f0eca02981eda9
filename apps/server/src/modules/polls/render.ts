import type { KnownBlock, ModalView } from '@slack/web-api';
import { wallClock } from '@flywheel/shared/clock';
import {
  POLL_ADD_ACTION,
  POLL_ADD_CALLBACK,
  POLL_BUTTON_MAX_OPTIONS,
  POLL_OPTION_MAX,
  POLL_VOTE_ACTION,
} from '@flywheel/shared/polls';
import { cutText } from '@flywheel/shared/text';
import type { PollBallot, PollOptionRecord } from './table.ts';

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

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * A button poll's message: the text (the question, and the counts when they are shown: live, or once closed)
 * and, while it is open, one button per option in actions blocks (five a block) and "Add an option" when
 * voters may add one. A button's value is `<poll id>:<option index>`.
 */
export function buttonPollMessage(p: {
  id: number;
  question: string;
  options: PollOptionRecord[];
  ballot: PollBallot;
  counts: ReadonlyMap<number, number>;
  voters: number;
  expiresAt: number;
  closed: boolean;
  tz: string;
}): { text: string; blocks: Record<string, unknown>[] } {
  const shown = p.closed || p.ballot.results === 'live';
  const total = p.options.reduce((n, _o, i) => n + (p.counts.get(i) ?? 0), 0);
  const lines = p.options.map((o, i) => {
    const label = `${o.emoji ? `${o.emoji} ` : ''}*${escape(o.value)}*`;
    if (!shown) return `• ${label}`;
    const n = p.counts.get(i) ?? 0;
    const share = total ? Math.round((n / total) * 100) : 0;
    const filled = total ? Math.round((n / total) * BAR) : 0;
    return `${label}  \`${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}\` ${plural(n, 'vote')} (${share}%)`;
  });
  const how = p.ballot.multiple
    ? p.ballot.max_choices
      ? `choose up to ${p.ballot.max_choices}`
      : 'choose as many as you like'
    : 'one choice; press another to change it';
  const rules = [
    `Press an option to vote (${how}); press it again to withdraw.`,
    p.ballot.anonymous ? 'Anonymous: votes are counted without names.' : '',
    shown ? `${plural(p.voters, 'voter')} so far.` : 'Results are shown when the poll closes.',
  ].filter(Boolean);
  const footer = p.closed
    ? `*This poll is closed.* Final results: ${plural(p.voters, 'voter')}, ${plural(total, 'vote')}. Closed ${localTime(p.expiresAt, p.tz)} (${p.tz}).`
    : `_${rules.join(' ')} Closes ${localTime(p.expiresAt, p.tz)} (${p.tz})._`;
  const text = [`:bar_chart: *Poll*`, p.question.trim(), '', ...lines, '', footer].join('\n');
  if (p.closed) return { text, blocks: [] };
  const buttons = p.options.map((o, i) => {
    const count = shown ? ` (${p.counts.get(i) ?? 0})` : '';
    return {
      type: 'button',
      action_id: `${POLL_VOTE_ACTION}${i}`,
      value: `${p.id}:${i}`,
      // Slack's button text holds 75 characters.
      text: {
        type: 'plain_text',
        emoji: true,
        text: cutText(`${o.emoji ? `${o.emoji} ` : ''}${o.value}`, 75 - count.length) + count,
      },
    };
  });
  const blocks: Record<string, unknown>[] = [];
  for (let i = 0; i < buttons.length; i += 5)
    blocks.push({ type: 'actions', block_id: `flywheel_poll_${i / 5}`, elements: buttons.slice(i, i + 5) });
  if (p.ballot.allow_add && p.options.length < POLL_BUTTON_MAX_OPTIONS)
    blocks.push({
      type: 'actions',
      block_id: 'flywheel_poll_add',
      elements: [
        {
          type: 'button',
          action_id: POLL_ADD_ACTION,
          value: String(p.id),
          text: { type: 'plain_text', text: 'Add an option' },
        },
      ],
    });
  return { text, blocks };
}

/** The add-option modal's input block and element. */
export const ADD_BLOCK = 'option';
export const ADD_INPUT = 'value';

/** The "Add an option" modal of a button poll: one text input (views.open with the press's trigger_id). */
export function addOptionModal(pollId: number): ModalView {
  return {
    type: 'modal',
    callback_id: POLL_ADD_CALLBACK,
    private_metadata: JSON.stringify({ poll: pollId }),
    title: { type: 'plain_text', text: 'Add an option' },
    submit: { type: 'plain_text', text: 'Add' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: ADD_BLOCK,
        label: { type: 'plain_text', text: 'Your option' },
        element: { type: 'plain_text_input', action_id: ADD_INPUT, max_length: POLL_OPTION_MAX },
      } as KnownBlock,
    ],
  };
}
