import {
  classes,
  describe,
  GridLines,
  SeriesLegend,
  numberOf,
  Tooltip,
  tooltipRows,
  useHover,
  valueAxis,
  XAxis,
  xPercent,
  YAxis,
  type CartesianProps,
} from './parts.tsx';
import { chartColor, percentOf } from './scale.ts';

export type BarChartProps = CartesianProps & {
  /** 'stacked': one bar per category, the series on top of each other; otherwise side by side. */
  type?: 'stacked' | 'default';
  /** The widest a bar may be, in px. */
  maxBarWidth?: number;
  /** Rounded top corners (px; the first number of a recharts radius list is used). */
  barProps?: { radius?: number | readonly number[] };
};

const RIGHT_PAD = 8;

/**
 * Bars over categories, drawn as boxes in a flex row: each category takes an equal share of the width and its
 * bars at most `maxBarWidth`, with no measuring; the tooltip shows the category's values.
 */
export function BarChart(props: BarChartProps) {
  const { h, data, dataKey, series, valueFormatter, xAxisProps, gridAxis = 'y' } = props;
  const n = data.length;
  const stacked = props.type === 'stacked';
  const max = Math.max(
    0,
    ...data.map((r) =>
      stacked
        ? series.reduce((sum, s) => sum + numberOf(r[s.name]), 0)
        : Math.max(0, ...series.map((s) => numberOf(r[s.name]))),
    ),
  );
  const axis = valueAxis(max, props.yAxisProps?.allowDecimals, valueFormatter);
  const plotH = h - (xAxisProps?.height ?? 24);
  const keys = data.map((r) => String(r[dataKey]));
  const hover = useHover(n, 'bar');
  const radiusValue = props.barProps?.radius;
  const radius = typeof radiusValue === 'number' ? radiusValue : (radiusValue?.[0] ?? 0);
  const columns = stacked ? 1 : series.length;
  const columnWidth = `min(${props.maxBarWidth ?? 48}px, ${(72 / columns).toFixed(2)}%)`;
  const active = hover.index;

  const segment = (s: (typeof series)[number], r: (typeof data)[number], top: boolean) => (
    <div
      key={s.name}
      className={classes.bar}
      data-bar={s.name}
      style={{
        height: `${percentOf(numberOf(r[s.name]), axis.top)}%`,
        background: chartColor(s.color),
        borderRadius: top ? `${radius}px ${radius}px 0 0` : undefined,
      }}
    />
  );

  return (
    <div
      className={classes.root}
      role="img"
      aria-label={props['aria-label'] ?? describe('Bar chart', series, n)}
      data-chart="bar"
    >
      <div className={classes.body} style={{ height: plotH }}>
        <YAxis axis={axis} side="left" />
        <div className={classes.plot} {...hover.handlers}>
          <GridLines axis={axis} show={gridAxis === 'y' || gridAxis === 'xy'} />
          <div className={classes.bands}>
            {data.map((r, i) => {
              // The last series with a value carries the rounded corners of a stack.
              let lastWithValue = -1;
              series.forEach((s, k) => {
                if (numberOf(r[s.name]) > 0) lastWithValue = k;
              });
              return (
                <div key={keys[i]} className={`${classes.band} ${active === i ? classes.bandActive : ''}`}>
                  {stacked ? (
                    <div className={classes.column} style={{ width: columnWidth }}>
                      {series.map((s, k) => segment(s, r, k === lastWithValue))}
                    </div>
                  ) : (
                    series.map((s) => (
                      <div key={s.name} className={classes.column} style={{ width: columnWidth }}>
                        {segment(s, r, true)}
                      </div>
                    ))
                  )}
                </div>
              );
            })}
          </div>
          {active !== null && data[active] ? (
            <Tooltip
              at={xPercent(active, n, 'bar')}
              label={keys[active]!}
              rows={tooltipRows(series, data[active]!, valueFormatter)}
            />
          ) : null}
        </div>
        <div style={{ width: RIGHT_PAD, flex: 'none' }} />
      </div>
      <XAxis keys={keys} kind="bar" options={xAxisProps} left={axis.width} right={RIGHT_PAD} />
      {props.withLegend ? <SeriesLegend series={series} /> : null}
    </div>
  );
}
