import { LineChart } from './charts/index.ts';
import { Box } from '@mantine/core';
import { dayAxis, formatCount } from '../lib/chart-labels.ts';
import { countColumn, DataTable, type DataColumn } from './DataTable.tsx';

export type Series = { name: string; label: string; color: string };

/**
 * A per-day series shown as a line chart or as a table (newest day first): one column per series, in
 * the order given, after the date. Lines are straight between days (counts per day: a smoothed curve would
 * draw values that are not in the data); the axis names each month once on long spans and the tooltip the day.
 * Series on `right` get their own scale on a right axis (e.g. a member count beside daily joins).
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
  /** Days the chart spans (labels: day-month up to 90, month-year beyond); the rows' count by default. */
  spanDays?: number;
  /** Series names drawn against a right axis, and the two axes' names. */
  right?: { series: string[]; label: string; leftLabel: string };
}) {
  const { view, rows, series, headers, label, testId, height, right } = props;
  if (view === 'graph') {
    const axis = dayAxis(
      rows.map((r) => r.day),
      props.spanDays ?? rows.length,
    );
    return (
      <Box data-testid={testId}>
        <LineChart
          h={height}
          data={rows}
          dataKey={axis.dataKey}
          xAxisProps={axis.xAxisProps}
          tooltipProps={axis.tooltipProps}
          series={series.map((s) => (right?.series.includes(s.name) ? { ...s, yAxisId: 'right' } : s))}
          curveType="linear"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          gridAxis="y"
          withDots={rows.length <= 31}
          valueFormatter={formatCount}
          yAxisProps={{ allowDecimals: false }}
          {...(right
            ? {
                withRightYAxis: true,
                yAxisLabel: right.leftLabel,
                rightYAxisLabel: right.label,
                rightYAxisProps: { allowDecimals: false, width: 70 },
              }
            : {})}
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
