import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditFilter } from '@flywheel/shared/audit';
import { auditEvents, auditEventsCsv } from '@flywheel/shared/endpoints/audit';
import { callEndpoint, downloadEndpoint } from '../../lib/endpoint-client.ts';
import { saveFile } from '../../lib/csv.ts';

export type AuditPageQuery = AuditFilter & { page: number; page_size: number };

/** The filters of a query string: empty ones left out. */
export function auditSearch<Q extends AuditFilter & { page?: number; page_size?: number }>(q: Q): Q {
  return Object.fromEntries(
    Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as Q;
}

/** GET /audit/:teamId/events: one page of the log, newest first, with the people and kinds for the filters. */
export function useAuditEvents(teamId: string, q: AuditPageQuery) {
  return useQuery({
    queryKey: ['audit', teamId, q],
    queryFn: ({ signal }) =>
      callEndpoint(auditEvents, { params: { teamId }, query: auditSearch(q) }, { signal }),
    enabled: teamId !== '',
    placeholderData: keepPreviousData,
  });
}

export const AUDIT_CSV_NAME = 'Audit log.csv';

/** GET /audit/:teamId/events.csv with the same filters (every matching row), saved as 'Audit log.csv'. */
export async function downloadAuditCsv(teamId: string, f: AuditFilter): Promise<void> {
  const csv = await downloadEndpoint(auditEventsCsv, { params: { teamId }, query: auditSearch(f) });
  saveFile(AUDIT_CSV_NAME, csv);
}
