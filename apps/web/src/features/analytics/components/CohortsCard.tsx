import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Table, Text } from '@mantine/core';
import {
  cohortLabel,
  cohortsCsv,
  type CohortCell,
  type CohortGrid,
  type CohortPeriod,
} from '@flywheel/shared/cohorts';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { Segmented } from '../../../components/segmented/Segmented.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { downloadCsv } from '../../../lib/csv.ts';
import { membersJoinedLink } from '../../../lib/members-link.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useCohorts } from '../api/cohorts.ts';
import { DownloadButton } from './controls.tsx';

const isEmpty = (g: CohortGrid) => g.cohorts.every((c) => c.members === 0);

/**
 * Heat-map background of a cell: light to mid blue with the share. The text stays dark on every shade
 * (contrast at least 4.5:1 at the darkest).
 */
export function heat(percent: number): string {
  const lightness = Math.round(97 - (Math.min(100, Math.max(0, percent)) / 100) * 35);
  return `hsl(214, 90%, ${lightness}%)`;
}

const INK = '#1a1b1e';

function Cell({ cell }: { cell: CohortCell | null }) {
  if (!cell) return <Table.Td title="Not reached yet" />;
  const title = `${cell.active} of ${cell.eligible} members active`;
  return (
    <Table.Td title={title} style={{ background: heat(cell.percent), color: INK, textAlign: 'center' }}>
      <Text fz="sm" fw={600} c={INK} span>
        {cell.percent}%
      </Text>
      <Text fz={11} c={INK} display="block">
        {cell.active}/{cell.eligible}
      </Text>
    </Table.Td>
  );
}

/**
 * Retention by join cohort: rows are the members who joined in one week (Monday to Sunday) or calendar month
 * of the workspace's timezone, columns the weeks since each member's own join day. A cell: the share of the
 * members who reached that week who had any message, reply or reaction in it.
 */
export function CohortsCard() {
  const [period, setPeriod] = useState<CohortPeriod>('week');
  const q = useCohorts(period);
  useErrorToast(q);
  const grid = q.data;
  const weeks = Array.from({ length: grid?.weeks ?? 0 }, (_, k) => k);
  const download = () => {
    if (grid) downloadCsv(`Retention by join cohort (${grid.period})`, cohortsCsv(grid));
  };
  return (
    <ChartCard
      id="retention"
      title="Retention by join cohort"
      subtitle="Share of each cohort active in each week since joining (members who left included)"
      actions={
        <>
          <Segmented
            aria-label="Cohort period"
            size="xs"
            value={period}
            onChange={(v) => setPeriod(v as CohortPeriod)}
            data={[
              { value: 'week', label: 'Weekly' },
              { value: 'month', label: 'Monthly' },
            ]}
          />
          <DownloadButton
            label="Download Retention CSV"
            disabled={!grid || isEmpty(grid)}
            onClick={download}
          />
        </>
      }
      state={queryState(q, isEmpty, errorMessage)}
      emptyText="No members joined in these cohorts"
      minHeight={240}
    >
      {grid ? (
        <Table.ScrollContainer minWidth={720}>
          <Table
            aria-label="Retention by join cohort"
            withTableBorder
            withColumnBorders
            verticalSpacing={4}
            horizontalSpacing={6}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Cohort</Table.Th>
                <Table.Th scope="col">Members</Table.Th>
                {weeks.map((k) => (
                  <Table.Th scope="col" key={k} style={{ textAlign: 'center' }}>
                    Week {k}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {grid.cohorts.map((c) => (
                <Table.Tr key={c.start}>
                  <Table.Th scope="row" fw={500}>
                    {c.members > 0 ? (
                      <Anchor
                        component={Link}
                        to={membersJoinedLink(c.start, c.end < grid.today ? c.end : grid.today)}
                        fz="sm"
                        title={`Members who joined ${c.start} to ${c.end}`}
                      >
                        {cohortLabel(grid.period, c.start)}
                      </Anchor>
                    ) : (
                      cohortLabel(grid.period, c.start)
                    )}
                  </Table.Th>
                  <Table.Td>{c.members}</Table.Td>
                  {weeks.map((k) => (
                    <Cell key={k} cell={c.members > 0 ? (c.cells[k] ?? null) : null} />
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </ChartCard>
  );
}
