import { BUCKET_CSV_TITLE } from '@flywheel/shared/buckets';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/csv.ts';
import type { AdvanceFilterRequest } from './perform-advance-analytics.ts';

/** POST /analytics/exportadvanceanalytics: every row of the bucket table as 'Bucket Data.csv' (server CSV). */
export async function downloadAdvanceCsv(teamId: string, r: AdvanceFilterRequest): Promise<void> {
  const csv = await apiDownload('/analytics/exportadvanceanalytics', { body: { ...r, team_id: teamId } });
  saveFile(`${BUCKET_CSV_TITLE}.csv`, csv);
}
