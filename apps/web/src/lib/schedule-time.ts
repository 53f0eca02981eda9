import { DAY_CODES, type DayCode, type Frequency } from '@flywheel/shared/clock';

/*
 * The fields every scheduled send has in common (Schedule Message, Create Form, Create Poll): the frequency and
 * day labels, and the date-time picker's value as the API's post_at.
 */

export const FREQUENCY_LABEL: Record<Frequency, string> = {
  Everyday: 'Every Day',
  Weekly: 'Weekly',
  onetime: 'One Time',
};
export const DAY_LABEL: Record<DayCode, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thurs: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
export const DAYS = DAY_CODES;

/** The picker's YYYY-MM-DDTHH:MM as the API's post_at {date: DD/MM/YYYY, time: HH:MM}, or null. */
export function postAtOf(at: string): { date: string; time: string } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(at);
  return m ? { date: `${m[3]}/${m[2]}/${m[1]}`, time: `${m[4]}:${m[5]}` } : null;
}
