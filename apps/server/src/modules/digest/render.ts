import type { Digest, DigestNumber } from '@flywheel/shared/digest';
import type { Mail } from '../mail/service.ts';
import { formatDuration } from '@flywheel/shared/duration';

/*
 * The digest as an e-mail (text and HTML) and as a Slack DM (mrkdwn). Every piece of user content (a workspace's,
 * a member's or a channel's name, a question, a thread) is escaped for where it goes: HTML entities in the
 * e-mail, Slack's three control characters in the DM. Links are absolute and name the workspace (`?workspace=`),
 * so the app opens on the workspace the digest is about.
 */

const html = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const mrkdwn = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
const oneLine = (s: string, max = 140) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const shortDay = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return { text: `${d} ${MONTHS[m! - 1]}`, year: y! };
};
/** "17-23 Nov 2026", "27 Oct - 2 Nov 2026", "29 Dec 2025 - 4 Jan 2026". */
export function weekLabel(start: string, end: string): string {
  const a = shortDay(start);
  const b = shortDay(end);
  if (a.year !== b.year) return `${a.text} ${a.year} - ${b.text} ${b.year}`;
  if (start.slice(0, 7) === end.slice(0, 7)) return `${a.text.split(' ')[0]}-${b.text} ${b.year}`;
  return `${a.text} - ${b.text} ${b.year}`;
}

/** "+12.5% vs 400", "new (0 the week before)", "no full week before to compare". */
export function changeText(n: DigestNumber): string {
  if (n.comparison === 'incomplete') return 'no full week before to compare';
  if (n.comparison === 'new') return `new (${fmt(n.previous)} the week before)`;
  if (n.value === n.previous) return `same as the week before`;
  return `${n.sign}${n.percent}% vs ${fmt(n.previous)}`;
}

const percentText = (share: number | null) => (share === null ? '-' : `${Math.round(share * 100)}%`);

/** The digest's sections as plain data: a heading, lines (text plus an optional link) and a "see more" link. */
type Line = { text: string; link?: string };
type Section = { title: string; lines: Line[]; more?: Line };

export function sectionsOf(d: Digest): Section[] {
  const rt = d.response_times;
  const names = (ms: { name: string }[], count: number) =>
    ms.length === 0
      ? ''
      : `: ${ms.map((m) => m.name).join(', ')}${count > ms.length ? ` and ${fmt(count - ms.length)} more` : ''}`;
  return [
    {
      title: 'The week in numbers',
      lines: d.numbers.map((n) => ({ text: `${n.name}: ${fmt(n.value)} (${changeText(n)})` })),
      more: { text: 'Open Analytics', link: d.response_times.link },
    },
    {
      title: 'Questions',
      lines: [
        {
          text:
            rt.questions === 0
              ? 'No questions were asked this week.'
              : `${plural(rt.questions, 'question')} asked, ${fmt(rt.answered)} answered; median first answer ${formatDuration(rt.median_seconds, '-')}, ${percentText(rt.within_24h)} answered within 24 h.`,
        },
        {
          text:
            d.questions.total === 0
              ? 'No question waits for an answer.'
              : `${plural(d.questions.total, 'question')} still without an answer:`,
        },
        ...d.questions.top.map((q) => ({
          text: `#${q.channel_name}, ${q.sender}: ${oneLine(q.content)}`,
          link: q.permalink,
        })),
      ],
      more: { text: 'Open Questions', link: d.questions.link },
    },
    {
      title: 'Members',
      lines: [
        {
          text: `New: ${fmt(d.members.new.count)}${names(d.members.new.members, d.members.new.count)}`,
          link: d.members.new.link,
        },
        {
          text: `Slipping: ${fmt(d.members.slipping.count)}${names(d.members.slipping.members, d.members.slipping.count)}`,
          link: d.members.slipping.link,
        },
        {
          text: `Returning: ${fmt(d.members.returning.count)}${names(d.members.returning.members, d.members.returning.count)}`,
          link: d.members.returning.link,
        },
      ],
    },
    {
      title: 'Top threads',
      lines:
        d.threads.top.length === 0
          ? [{ text: 'No thread got a reply this week.' }]
          : d.threads.top.map((t) => ({
              text: `${plural(t.replies, 'reply', 'replies')} in #${t.channel_name}, ${t.sender}: ${oneLine(t.content)}`,
              link: t.permalink,
            })),
      more: { text: 'Open Threads', link: d.threads.link },
    },
    {
      title: 'Sends',
      lines: [
        {
          text:
            d.sends.count === 0
              ? 'Nothing was sent this week.'
              : `${plural(d.sends.count, 'send')} to ${plural(d.sends.recipients, 'recipient')}: ${fmt(d.sends.sent)} delivered, ${fmt(d.sends.failed)} failed.`,
        },
        ...d.sends.with_failures.map((f) => ({
          text: `${fmt(f.failed)} of ${fmt(f.total)} failed: ${oneLine(f.description, 100)}`,
          link: f.link,
        })),
      ],
      more: { text: 'Open Receipts', link: d.sends.link },
    },
  ];
}

/** An app path as an absolute link that opens the digest's workspace; Slack permalinks stay as they are. */
export function absolute(origin: string, teamId: string, link: string): string {
  if (/^https?:\/\//.test(link)) return link;
  return `${origin}${link}${link.includes('?') ? '&' : '?'}workspace=${encodeURIComponent(teamId)}`;
}

export const digestSubject = (d: Digest) =>
  `Weekly digest: ${d.workspace_name}, ${weekLabel(d.week.start, d.week.end)}`;

export function digestMail(to: string, username: string, d: Digest, origin: string): Mail {
  const link = (l: string) => absolute(origin, d.team_id, l);
  const sections = sectionsOf(d);
  const settings = link('/dashboard/settings/digest');
  const intro = `Hi ${username}, here is ${d.workspace_name} from ${weekLabel(d.week.start, d.week.end)} (${d.timezone}), against the week before.`;
  const text = [
    intro,
    '',
    ...sections.flatMap((s) => [
      s.title.toUpperCase(),
      ...s.lines.map((l) => `- ${l.text}${l.link ? `\n  ${link(l.link)}` : ''}`),
      ...(s.more?.link ? [`${s.more.text}: ${link(s.more.link)}`] : []),
      '',
    ]),
    `You get this because you turned on the weekly digest of ${d.workspace_name}. Change it: ${settings}`,
    '',
  ].join('\n');
  const a = (l: Line) =>
    l.link
      ? `<a href="${html(link(l.link))}" style="color:#1f2330;text-decoration:none">${html(l.text)}</a>`
      : html(l.text);
  const body = sections
    .map(
      (s) => `<tr><td style="font-size:16px;font-weight:600;padding:20px 0 8px">${html(s.title)}</td></tr>
<tr><td style="font-size:14px;line-height:22px">${s.lines.map((l) => `<div style="padding:2px 0">${a(l)}</div>`).join('')}${
        s.more?.link
          ? `<div style="padding-top:6px"><a href="${html(link(s.more.link))}" style="color:#4c3bcf;font-weight:600;text-decoration:none">${html(s.more.text)} &rarr;</a></div>`
          : ''
      }</td></tr>`,
    )
    .join('\n');
  const page = `<!doctype html><html><body style="margin:0;background:#f4f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2330">
<table width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table width="560" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:12px;padding:32px">
<tr><td style="font-size:20px;font-weight:700;color:#4c3bcf;padding-bottom:16px">Flywheel</td></tr>
<tr><td style="font-size:18px;font-weight:600;padding-bottom:8px">${html(digestSubject(d))}</td></tr>
<tr><td style="font-size:15px;line-height:22px">${html(intro)}</td></tr>
${body}
<tr><td style="font-size:13px;line-height:20px;color:#6b7080;padding-top:24px">You get this because you turned on the weekly digest of ${html(d.workspace_name)}. <a href="${html(settings)}" style="color:#6b7080">Change it</a>.</td></tr>
</table></td></tr></table></body></html>`;
  return { to, subject: digestSubject(d), text, html: page };
}

/** The Slack DM: mrkdwn with links (`<url|text>`), user content escaped. */
export function digestSlackText(d: Digest, origin: string): string {
  const link = (l: string) => absolute(origin, d.team_id, l);
  const line = (l: Line) => (l.link ? `• <${link(l.link)}|${mrkdwn(l.text)}>` : `• ${mrkdwn(l.text)}`);
  return [
    `*${mrkdwn(digestSubject(d))}*`,
    ...sectionsOf(d).flatMap((s) => [
      '',
      `*${mrkdwn(s.title)}*`,
      ...s.lines.map(line),
      ...(s.more?.link ? [`<${link(s.more.link)}|${mrkdwn(s.more.text)}>`] : []),
    ]),
  ].join('\n');
}
