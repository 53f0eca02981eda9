import type { RecipientKind } from '@flywheel/shared/delivery';
import { exportRecipients } from '@flywheel/shared/endpoints/delivery';
import { downloadEndpoint } from '../../../lib/endpoint-client.ts';
import { saveFile } from '../../../lib/csv.ts';

/** The saved file's name per count: 'Total Recipients 12.csv', 'Successful Recipients 12.csv', … */
export const RECIPIENTS_FILE: Record<RecipientKind, string> = {
  total: 'Total Recipients',
  successful: 'Successful Recipients',
  failed: 'Failed Recipients',
};

/** GET /receipts/exportrecipients/:team/:id/:kind (CSV with BOM), saved under the count's name. */
export async function downloadRecipientsCsv(teamId: string, id: number, kind: RecipientKind): Promise<void> {
  const csv = await downloadEndpoint(exportRecipients, { params: { teamId, id, kind } });
  saveFile(`${RECIPIENTS_FILE[kind]} ${id}.csv`, csv);
}
