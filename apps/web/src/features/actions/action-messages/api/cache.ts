import type { QueryClient } from '@tanstack/react-query';
import type { ActionRow } from '@flywheel/shared/actions';
import { actionsKey } from './actions-key.ts';

/** Puts a row into its table's cache: a new one first (newest first), an edited one in its place. */
export function putRow(qc: QueryClient, teamId: string, row: ActionRow): void {
  qc.setQueryData<ActionRow[]>(actionsKey(teamId, row.kind), (rows) => {
    if (!rows) return rows;
    return rows.some((r) => r.id === row.id) ? rows.map((r) => (r.id === row.id ? row : r)) : [row, ...rows];
  });
}

/** Takes a deleted row out of both tables' caches. */
export function dropRow(qc: QueryClient, teamId: string, id: number): void {
  for (const kind of ['automation', 'schedule'] as const)
    qc.setQueryData<ActionRow[]>(actionsKey(teamId, kind), (rows) => rows?.filter((r) => r.id !== id));
}
