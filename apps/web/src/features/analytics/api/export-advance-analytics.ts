import { BUCKET_CSV_TITLE } from '@flywheel/shared/buckets';
import { exportAdvanceAnalytics } from '@flywheel/shared/endpoints/buckets';
import { downloadEndpoint } from '../../../lib/endpoint-client.ts';
import { saveFile } from '../../../lib/csv.ts';
import type { AdvanceFilterRequest } from './perform-advance-analytics.ts';

/** POST /analytics/exportadvanceanalytics: every row of the bucket table as 'Bucket Data.csv' (server CSV). */
export async function downloadAdvanceCsv(teamId: string, r: AdvanceFilterRequest): Promise<void> {
  const csv = await downloadEndpoint(exportAdvanceAnalytics, { body: { ...r, team_id: teamId } });
  saveFile(`${BUCKET_CSV_TITLE}.csv`, csv);
}
