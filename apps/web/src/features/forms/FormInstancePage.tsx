import { useMemo, useState } from 'react';
import { Button, Card, Group, Select, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { FORM_TEXTS, type FormAnswerRow } from '@flywheel/shared/forms';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { downloadFormCsv, useFormInstances, useFormResponses } from '../../entities/forms/index.ts';
import { FormAnswerCharts } from './FormAnswerCharts.tsx';
import { instancePath } from './FormInstancesModal.tsx';

const idOf = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : null);

/**
 * /dashboard/actions/form-instances/:mid/:fid/:label?name=: the responses of one form instance:
 * 'Current Instance', charts of the answers that are picked or counted (choices, checkboxes, ratings, yes/no,
 * numbers), and a searchable, sortable, paged table with 'name' and one column per question.
 */
export function FormInstancePage() {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const { teamId } = useCurrentTeam();
  const name = search.get('name') || 'Form responses';
  const formId = idOf(params.mid) ?? 0;
  const instanceId = idOf(params.fid);
  const label = params.label ?? '';
  const instances = useFormInstances(formId > 0 ? formId : null);
  const responses = useFormResponses(formId, instanceId);
  const [exporting, setExporting] = useState(false);

  const questions = responses.data?.questions;
  const columns = useMemo<DataColumn<FormAnswerRow>[]>(
    () => [
      { id: 'name', header: 'name', value: (r) => r.name, sortable: true, fw: 500 },
      ...(questions ?? []).map((q, i): DataColumn<FormAnswerRow> => ({
        id: `q${i}`,
        header: q,
        value: (r) => r.answers[i]?.answer ?? '',
        sortable: true,
      })),
    ],
    [questions],
  );

  const current = responses.data?.instance.label ?? label;
  const empty = instanceId === null ? FORM_TEXTS.selectInstance : FORM_TEXTS.noData(current);

  return (
    <>
      <PageHeader title={name} description="Answers members submitted in Slack, one row per member." />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" wrap="wrap">
            <Select
              label="Current Instance"
              placeholder={FORM_TEXTS.selectInstance}
              w={300}
              data={(instances.data ?? []).map((i) => ({
                value: String(i.form_id),
                label: `${i.label} · ${i.responses} response${i.responses === 1 ? '' : 's'}`,
              }))}
              value={instanceId === null ? null : String(instanceId)}
              onChange={(v) => {
                const next = instances.data?.find((i) => String(i.form_id) === v);
                if (next) navigate(instancePath({ master_form_id: formId, form_title: name }, next));
              }}
              allowDeselect={false}
            />
            <Button
              variant="light"
              leftSection={<IconDownload size={16} />}
              disabled={instanceId === null || !responses.data}
              loading={exporting}
              onClick={async () => {
                if (instanceId === null) return;
                setExporting(true);
                // A failed export is only logged.
                await downloadFormCsv(teamId, formId, instanceId).catch((err) =>
                  console.warn('form export failed', err),
                );
                setExporting(false);
              }}
            >
              Export
            </Button>
          </Group>
          {instanceId !== null ? <Text fz="sm" c="dimmed">{`Current Instance: ${current}`}</Text> : null}
          {instanceId !== null && responses.data ? <FormAnswerCharts data={responses.data} /> : null}
          <DataTable
            label="Form responses"
            columns={columns}
            rows={instanceId === null ? [] : responses.data?.rows}
            rowId={(r) => r.member_id}
            loading={instanceId !== null && responses.isPending && responses.fetchStatus !== 'idle'}
            error={responses.error ? errorMessage(responses.error) : null}
            emptyText={empty}
            search={{ label: 'Search responses', width: 320 }}
            countLabel={(n) => `${n} response${n === 1 ? '' : 's'}`}
            defaultSort={{ id: 'name', desc: false }}
            pageSize={10}
            minWidth={Math.max(480, 200 * columns.length)}
            striped
            highlightOnHover
            verticalSpacing="sm"
          />
        </Stack>
      </Card>
    </>
  );
}
