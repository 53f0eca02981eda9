import { LineChart } from '@mantine/charts';
import { Box, ScrollArea, Table } from '@mantine/core';
import { formatCount } from '../lib/chart-labels.ts';

export type Series = { name: string; label: string; color: string };

/**
 * A per-day series shown as a line chart or as a table (newest day first): one column per series, in
 * the order given, after the date.
 */
export function SeriesView(props: {
  view: 'graph' | 'table';
  /** One row a day: `date` (chart label), `day` (table), and a number under each series' name. */
  rows: ({ date: string; day: string } & object)[];
  series: Series[];
  headers: string[];
  label: string;
  testId: string;
  height: number;
}) {
  const { view, rows, series, headers, label, testId, height } = props;
  if (view === 'graph') {
    return (
      <Box data-testid={testId}>
        <LineChart
          h={height}
          data={rows}
          dataKey="date"
          series={series}
          curveType="monotone"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          gridAxis="y"
          withDots={rows.length <= 31}
        />
      </Box>
    );
  }
  return (
    <ScrollArea h={height}>
      <Table striped stickyHeader aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((h, i) => (
              <Table.Th key={h} ta={i ? 'right' : undefined}>
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {[...rows].reverse().map((r) => (
            <Table.Tr key={r.day}>
              <Table.Td>{r.day}</Table.Td>
              {series.map((s) => (
                <Table.Td key={s.name} ta="right">
                  {formatCount(Number((r as Record<string, unknown>)[s.name] ?? 0))}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
