import { useCallback, useEffect, useMemo, useState } from 'react';
import { queryOptions, useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { MEMBER_LOOKUP_MAX, MEMBER_SEARCH_LIMIT, type MemberHit } from '@flywheel/shared/member-directory';
import {
  lookupMembers as lookupMembersEndpoint,
  searchMembers as searchMembersEndpoint,
} from '@flywheel/shared/endpoints/directory';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import type { PickOption } from '../../lib/entries.ts';
import { useCurrentTeam, workspaceKey } from '../workspace/index.ts';

/*
 * The member directory without loading it: at 50,000 members GET /members/getmembers is ~17 MB, so screens
 * ask the server what they show. A search (capped at 10) for the top bar and the pickers, and the names of the
 * ids on screen, looked up in batches (every id asked within one tick goes out in one POST /members/lookup).
 * Each member found is kept under ['workspace', teamId, 'member', id], so a name looked up once (or seen in
 * a search) is known to every screen.
 */

const MINUTE = 60_000;

export type { MemberHit };

/** A member's name as screens show it: real name, else display name, else the id. */
export const nameOfHit = (m: Pick<MemberHit, 'member_id' | 'real_name' | 'display_name'>): string =>
  m.real_name || m.display_name || m.member_id;

/** A hit as a target picker's option (resolved by e-mail, name or display name). */
export const hitToOption = (m: MemberHit): PickOption => ({
  value: m.member_id,
  label: nameOfHit(m),
  alt: m.display_name,
  email: m.email,
});

export const memberKey = (teamId: string, memberId: string) =>
  [...workspaceKey(teamId), 'member', memberId] as const;

/** GET /members/search: members whose name, display name or e-mail holds `q` (at most 10; `more` if cut). */
export async function searchMembers(
  teamId: string,
  q: string,
  opts: { limit?: number; left?: boolean; signal?: AbortSignal } = {},
) {
  return callEndpoint(
    searchMembersEndpoint,
    {
      params: { teamId },
      query: { q: q.trim(), limit: opts.limit ?? MEMBER_SEARCH_LIMIT, left: opts.left ? 'true' : undefined },
    },
    { signal: opts.signal },
  );
}

/** POST /members/lookup: the members of these ids and of these typed entries (exact e-mail, name or id). */
export async function lookupMembers(
  teamId: string,
  ask: { member_ids?: string[]; entries?: string[] },
  signal?: AbortSignal,
): Promise<MemberHit[]> {
  const out: MemberHit[] = [];
  const ids = ask.member_ids ?? [];
  const entries = ask.entries ?? [];
  for (let i = 0; i < Math.max(ids.length, entries.length); i += MEMBER_LOOKUP_MAX) {
    out.push(
      ...(await callEndpoint(
        lookupMembersEndpoint,
        {
          body: {
            team_id: teamId,
            member_ids: ids.slice(i, i + MEMBER_LOOKUP_MAX),
            entries: entries.slice(i, i + MEMBER_LOOKUP_MAX),
          },
        },
        { signal },
      ).then((a) => a.data)),
    );
  }
  return out;
}

/* One batch per team: ids asked in the same tick, each with the callers waiting for it. */
type Waiter = { resolve(hit: MemberHit | null): void; reject(err: unknown): void };
const batches = new Map<string, Map<string, Waiter[]>>();

function flush(teamId: string) {
  const batch = batches.get(teamId);
  batches.delete(teamId);
  if (!batch) return;
  const ids = [...batch.keys()];
  lookupMembers(teamId, { member_ids: ids }).then(
    (hits) => {
      const byId = new Map(hits.map((h) => [h.member_id, h]));
      for (const [id, waiters] of batch) for (const w of waiters) w.resolve(byId.get(id) ?? null);
    },
    (err: unknown) => {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
    },
  );
}

/** One member by id, through the batch: null when the workspace has no such member. */
export function loadMember(teamId: string, memberId: string): Promise<MemberHit | null> {
  return new Promise((resolve, reject) => {
    let batch = batches.get(teamId);
    if (!batch) {
      batch = new Map();
      batches.set(teamId, batch);
      setTimeout(() => flush(teamId), 0);
    }
    const waiters = batch.get(memberId) ?? [];
    waiters.push({ resolve, reject });
    batch.set(memberId, waiters);
  });
}

export const memberByIdQuery = (teamId: string, memberId: string) =>
  queryOptions({
    queryKey: memberKey(teamId, memberId),
    queryFn: () => loadMember(teamId, memberId),
    staleTime: 10 * MINUTE,
    gcTime: 30 * MINUTE,
  });

/** Keeps the hits of a search or a lookup as known members (their names show without another call). */
export function rememberMembers(qc: QueryClient, teamId: string, hits: readonly MemberHit[]) {
  for (const h of hits) qc.setQueryData(memberKey(teamId, h.member_id), h);
}

/**
 * The members of these ids (those the workspace has), looked up in one batched call: a Map by id. Ids still
 * loading (or unknown) are missing from the map.
 */
export function useMemberNames(memberIds: readonly string[]): {
  byId: ReadonlyMap<string, MemberHit>;
  pending: boolean;
} {
  const { teamId } = useCurrentTeam();
  const unique = useMemo(() => [...new Set(memberIds)], [memberIds]);
  return useQueries({
    queries: unique.map((id) => ({ ...memberByIdQuery(teamId, id), enabled: teamId !== '' })),
    combine: (results) => {
      const byId = new Map<string, MemberHit>();
      for (const r of results) if (r.data) byId.set(r.data.member_id, r.data);
      return { byId, pending: results.some((r) => r.isPending && r.fetchStatus !== 'idle') };
    },
  });
}

/**
 * What a member target picker (EntryPicker) needs, one implementation for every picker (typed
 * or pasted entries split on comma, space or semicolon; e-mail-like ones resolved to members by e-mail, others
 * by name, display name or id): the chosen members as options (their names looked up by id), suggestions from
 * the server's search (at most 10), and a pasted list's entries looked up on the server (exact e-mail, name or
 * id, any number of members in the workspace; members who left are not offered). Whatever is found is kept
 * as a known member, so its name shows without another call.
 */
export function useMemberEntrySources(chosenIds: readonly string[]): {
  options: PickOption[];
  searchOptions(q: string, signal: AbortSignal): Promise<PickOption[]>;
  lookupOptions(entries: string[]): Promise<PickOption[]>;
} {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  const chosen = useMemberNames(chosenIds);
  const options = useMemo(() => [...chosen.byId.values()].map(hitToOption), [chosen.byId]);
  const searchOptions = useCallback(
    async (q: string, signal: AbortSignal) => {
      const hits = (await searchMembers(teamId, q, { signal })).data;
      rememberMembers(qc, teamId, hits);
      return hits.map(hitToOption);
    },
    [teamId, qc],
  );
  const lookupOptions = useCallback(
    async (entries: string[]) => {
      const hits = (await lookupMembers(teamId, { entries })).filter((m) => !m.deleted);
      rememberMembers(qc, teamId, hits);
      return hits.map(hitToOption);
    },
    [teamId, qc],
  );
  return { options, searchOptions, lookupOptions };
}

/**
 * A member search as you type (debounce it before): at most 10 hits and whether more match. Nothing is asked
 * for a blank query. `left`: members who left are found too.
 */
export function useMemberSearch(query: string, opts: { left?: boolean; limit?: number } = {}) {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  const q = query.trim();
  return useQuery({
    queryKey: [
      ...workspaceKey(teamId),
      'member-search',
      q.toLowerCase(),
      opts.left ?? false,
      opts.limit ?? 10,
    ],
    queryFn: async ({ signal }) => {
      const res = await searchMembers(teamId, q, { ...opts, signal });
      rememberMembers(qc, teamId, res.data);
      return res;
    },
    enabled: teamId !== '' && q !== '',
    staleTime: MINUTE,
    placeholderData: (previous) => previous,
  });
}

/**
 * Names of member ids looked up while rendering: `member(id)` answers a known name at once, and asks the
 * server (batched) for an unknown one, rendering again when it arrives. For text whose mentions are only
 * known when it is drawn (message tables, poll details).
 */
export function useLazyMemberNames(): (id: string) => string | undefined {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  const [version, setVersion] = useState(0);
  const [asked] = useState(() => new Set<string>());
  // A name that arrives anywhere (another screen's lookup, a search) shows here too.
  useEffect(
    () =>
      qc.getQueryCache().subscribe((event) => {
        const key = event.query.queryKey;
        if (
          event.type === 'updated' &&
          event.action.type === 'success' &&
          key[0] === 'workspace' &&
          key[1] === teamId &&
          key[2] === 'member' &&
          asked.has(`${teamId}:${String(key[3])}`)
        )
          setVersion((v) => v + 1);
      }),
    [qc, teamId, asked],
  );
  return useMemo(() => {
    void version;
    return (id: string) => {
      if (!teamId) return undefined;
      const hit = qc.getQueryData<MemberHit | null>(memberKey(teamId, id));
      if (hit) return hit.real_name || hit.display_name || undefined;
      if (hit === undefined && !asked.has(`${teamId}:${id}`)) {
        asked.add(`${teamId}:${id}`);
        // Fetched after this render; failures leave the token's own text.
        queueMicrotask(() => void qc.fetchQuery(memberByIdQuery(teamId, id)).catch(() => undefined));
      }
      return undefined;
    };
  }, [qc, teamId, version, asked]);
}
