import { FORM_CSV_TITLE } from '@flywheel/shared/forms';
import { exportFormResponse } from '@flywheel/shared/endpoints/forms';
import { downloadEndpoint } from '../../lib/endpoint-client.ts';
import { saveFile } from '../../lib/csv.ts';

/*
 * A form instance's responses, wherever a sent form is listed (the Form Table's instances, a workflow's form
 * step): the page that shows them and the 'Form details' CSV.
 */

/** /dashboard/actions/form-instances/{masterFormId}/{formId}/{label}?name={formTitle}. */
export const formInstancePath = (
  masterFormId: number,
  instanceId: number,
  label: string,
  formTitle: string,
) =>
  `/dashboard/actions/form-instances/${masterFormId}/${instanceId}/${encodeURIComponent(label)}?name=${encodeURIComponent(formTitle)}`;

/** POST /actions/exportformresponse: the 'Form details' CSV of an instance (BOM; 'Details of no data' when empty). */
export async function downloadFormCsv(teamId: string, formId: number, instanceId: number): Promise<void> {
  const csv = await downloadEndpoint(exportFormResponse, {
    body: { team_id: teamId, master_form_id: formId, form_id: instanceId },
  });
  saveFile(`${FORM_CSV_TITLE}.csv`, csv);
}
