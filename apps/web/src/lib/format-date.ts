/*
 * THE date formats of the app, one for every screen (Home, Analytics, Members, member detail, Actions):
 * day before month, English month abbreviations, 24-hour times — '16 Nov 2026', '16 Nov 2026, 14:05',
 * '16 Nov'. Instants read in the browser's timezone; calendar days (YYYY-MM-DD) are taken as written.
 */

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

type Parts = { y: number; m: number; d: number; hh: number; mm: number };
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function partsOf(at: Date | number | string): Parts | null {
  if (typeof at === 'string') {
    const m = DAY.exec(at);
    if (m) return { y: Number(m[1]), m: Number(m[2]) - 1, d: Number(m[3]), hh: 0, mm: 0 };
  }
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return null;
  return {
    y: date.getFullYear(),
    m: date.getMonth(),
    d: date.getDate(),
    hh: date.getHours(),
    mm: date.getMinutes(),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** '16 Nov' (a day in a chart or a short list). */
export function formatDayMonth(at: Date | number | string): string {
  const p = partsOf(at);
  return p ? `${p.d} ${MONTHS[p.m]}` : '';
}

/** '16 Nov 2026'. */
export function formatDate(at: Date | number | string): string {
  const p = partsOf(at);
  return p ? `${p.d} ${MONTHS[p.m]} ${p.y}` : '';
}

/** '16 Nov 2026, 14:05'. */
export function formatDateTime(at: Date | number | string): string {
  const p = partsOf(at);
  return p ? `${p.d} ${MONTHS[p.m]} ${p.y}, ${pad(p.hh)}:${pad(p.mm)}` : '';
}

/** 'Nov 2026' (a month on a long chart axis). */
export function formatMonthYear(at: Date | number | string): string {
  const p = partsOf(at);
  return p ? `${MONTHS[p.m]} ${p.y}` : '';
}

/**
 * A range of calendar days, short enough for a control: '1 Oct – 15 Nov 2026' (one year), '1 Oct 2026' (one day),
 * '28 Dec 2025 – 3 Jan 2026' (two years).
 */
export function formatDayRange(start: string, end: string): string {
  const a = partsOf(start);
  const b = partsOf(end);
  if (!a || !b) return `${start} – ${end}`;
  if (start === end) return formatDate(start);
  return a.y === b.y
    ? `${formatDayMonth(start)} – ${formatDate(end)}`
    : `${formatDate(start)} – ${formatDate(end)}`;
}
