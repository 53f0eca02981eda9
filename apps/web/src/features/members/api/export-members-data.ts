import { MEMBERS_CSV_TITLE, type MembersExportRequest } from '@flywheel/shared/members';
import { exportMembersData } from '@flywheel/shared/endpoints/members-list';
import { downloadEndpoint } from '../../../lib/endpoint-client.ts';
import { saveFile } from '../../../lib/csv.ts';

/** POST /members/exportmembersdata, saved as 'Members Data.csv' (the server streams the CSV). */
export async function downloadMembersCsv(request: MembersExportRequest): Promise<void> {
  const csv = await downloadEndpoint(exportMembersData, { body: request });
  saveFile(`${MEMBERS_CSV_TITLE}.csv`, csv);
}
