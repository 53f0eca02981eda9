const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      f = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'UTC',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** The calendar day (YYYY-MM-DD) of an instant in a workspace's timezone. */
export const localDay = (at: Date, timeZone: string): string => formatter(timeZone).format(at);

/** A Slack ts ("1700000000.000100") as a Date (millisecond precision). */
export const tsToDate = (ts: string): Date => new Date(Math.floor(Number(ts) * 1000));
