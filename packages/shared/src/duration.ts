/**
 * A number of seconds as people say it: 40 s, 12 min, 3.5 h, 2 d; `none` for no value (the app shows a dash).
 * One wording for the Analytics response times, the digest page, its e-mail and its Slack DM.
 */
export function formatDuration(seconds: number | null, none = '–'): string {
  if (seconds === null) return none;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  const oneDecimal = (n: number) => n.toFixed(1).replace(/\.0$/, '');
  if (seconds < 86_400) return `${oneDecimal(seconds / 3600)} h`;
  return `${oneDecimal(seconds / 86_400)} d`;
}
