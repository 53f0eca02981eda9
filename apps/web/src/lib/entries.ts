import { SUGGESTION_LIMIT } from '@flywheel/shared/constants';

/** An option of a target picker: a member (value member_id) or a tag (value its id). */
export type PickOption = { value: string; label: string; email?: string; alt?: string };

/** Inputs split on comma, space or semicolon; entries trimmed. */
export const splitEntries = (text: string): string[] =>
  text
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);

const EMAIL_LIKE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * Resolves one typed entry to an option: e-mail-like entries by e-mail, others by label, alternative name or
 * value, all case-insensitively.
 */
export function resolveEntry(entry: string, options: readonly PickOption[]): PickOption | undefined {
  const e = entry.trim().replace(/^@/, '').toLowerCase();
  if (!e) return undefined;
  if (EMAIL_LIKE.test(e)) return options.find((o) => o.email?.toLowerCase() === e);
  return options.find(
    (o) => o.label.toLowerCase() === e || o.alt?.toLowerCase() === e || o.value.toLowerCase() === e,
  );
}

/** Resolves a pasted or typed text: the options found (once each) and the entries that matched nothing. */
export function resolveEntries(
  text: string,
  options: readonly PickOption[],
): { found: PickOption[]; unresolved: string[] } {
  const found: PickOption[] = [];
  const unresolved: string[] = [];
  for (const entry of splitEntries(text)) {
    const hit = resolveEntry(entry, options);
    if (!hit) unresolved.push(entry);
    else if (!found.some((f) => f.value === hit.value)) found.push(hit);
  }
  return { found, unresolved };
}

/** Suggestions: case-insensitive substring on label, alternative name or e-mail; capped at 10. */
export function suggest(
  query: string,
  options: readonly PickOption[],
  exclude: ReadonlySet<string>,
  limit = SUGGESTION_LIMIT,
): PickOption[] {
  const q = query.trim().toLowerCase();
  const out: PickOption[] = [];
  for (const o of options) {
    if (exclude.has(o.value)) continue;
    if (
      !q ||
      o.label.toLowerCase().includes(q) ||
      o.alt?.toLowerCase().includes(q) ||
      o.email?.toLowerCase().includes(q)
    ) {
      out.push(o);
      if (out.length === limit) break;
    }
  }
  return out;
}
