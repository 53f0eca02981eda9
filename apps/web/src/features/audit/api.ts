import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditListResponse, type AuditFilter } from '@flywheel/shared/audit';
import { apiDownload, apiRequest } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/csv.ts';

export type AuditPageQuery = AuditFilter & { page: number; page_size: number };

/** The filters as a query string (empty filters left out). */
export function auditSearch(q: AuditFilter & { page?: number; page_size?: number }): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

const base = (teamId: string) => `/audit/${encodeURIComponent(teamId)}`;

/** GET /audit/:teamId/events: one page of the log, newest first, with the people and kinds for the filters. */
export function useAuditEvents(teamId: string, q: AuditPageQuery) {
  return useQuery({
    queryKey: ['audit', teamId, q],
    queryFn: ({ signal }) =>
      apiRequest(`${base(teamId)}/events${auditSearch(q)}`, { schema: auditListResponse, signal }),
    enabled: teamId !== '',
    placeholderData: keepPreviousData,
  });
}

export const AUDIT_CSV_NAME = 'Audit log.csv';

/** GET /audit/:teamId/events.csv with the same filters (every matching row), saved as 'Audit log.csv'. */
export async function downloadAuditCsv(teamId: string, f: AuditFilter): Promise<void> {
  const csv = await apiDownload(`${base(teamId)}/events.csv${auditSearch(f)}`);
  saveFile(AUDIT_CSV_NAME, csv);
}
