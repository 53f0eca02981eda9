import { LineChart } from '@mantine/charts';
import { Box } from '@mantine/core';
import { countColumn, DataTable, type DataColumn } from './DataTable.tsx';

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
  type Row = (typeof rows)[number];
  const columns: DataColumn<Row>[] = [
    { id: 'day', header: headers[0] ?? 'Date', value: (r) => r.day },
    ...series.map((s, i) =>
      countColumn<Row>(headers[i + 1] ?? s.label, (r) => Number((r as Record<string, unknown>)[s.name] ?? 0)),
    ),
  ];
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={[...rows].reverse()}
      rowId={(r) => r.day}
      maxHeight={height}
      stickyHeader
    />
  );
}
