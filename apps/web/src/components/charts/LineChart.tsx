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

export type LineChartProps = CartesianProps & {
  /** A dot on every value (best on a month or less). */
  withDots?: boolean;
  /** Lines are always straight between points (a smoothed curve draws values that are not in the data). */
  curveType?: 'linear';
  /** Series with yAxisId 'right' get their own scale on a right axis. */
  withRightYAxis?: boolean;
  yAxisLabel?: string;
  rightYAxisLabel?: string;
  rightYAxisProps?: { allowDecimals?: boolean; width?: number };
};

/** Room on the right for the last label when there is no right axis. */
const RIGHT_PAD = 16;

/**
 * Lines over categories (usually days). The lines are an SVG stretched across the plot (strokes keep their
 * width), the axes, dots and tooltip are HTML placed in percent: the chart follows its box's width with no
 * measuring and no second render.
 */
export function LineChart(props: LineChartProps) {
  const { h, data, dataKey, series, valueFormatter, xAxisProps, gridAxis = 'y' } = props;
  const n = data.length;
  const onRight = (s: (typeof series)[number]) => props.withRightYAxis === true && s.yAxisId === 'right';
  const leftSeries = series.filter((s) => !onRight(s));
  const rightSeries = series.filter(onRight);
  const maxOf = (list: typeof series) =>
    Math.max(0, ...list.flatMap((s) => data.map((r) => numberOf(r[s.name]))));
  const left = valueAxis(maxOf(leftSeries), props.yAxisProps?.allowDecimals, valueFormatter);
  const right = rightSeries.length
    ? valueAxis(maxOf(rightSeries), props.rightYAxisProps?.allowDecimals, valueFormatter)
    : null;
  const plotH = h - (xAxisProps?.height ?? 24);
  const keys = data.map((r) => String(r[dataKey]));
  const topOf = (s: (typeof series)[number]) => (onRight(s) ? right!.top : left.top);
  /** A value's distance from the plot's top, in px. */
  const yOf = (s: (typeof series)[number], r: (typeof data)[number]) =>
    plotH - (percentOf(numberOf(r[s.name]), topOf(s)) / 100) * plotH;
  const hover = useHover(n, 'line');

  const paths = series.map((s) =>
    data
      .map((r, i) => {
        const x = (xPercent(i, n, 'line') * 10).toFixed(1);
        const y = yOf(s, r).toFixed(1);
        return `${i === 0 ? 'M' : 'L'}${x} ${y}`;
      })
      .join(''),
  );
  const leftWidth = left.width + (props.yAxisLabel ? 18 : 0);
  const rightWidth = right
    ? (props.rightYAxisProps?.width ?? right.width) + (props.rightYAxisLabel ? 18 : 0)
    : RIGHT_PAD;
  const dots = props.withDots || n === 1;
  const active = hover.index;
  const label = (key: string) =>
    props.tooltipProps?.labelFormatter?.(key) ?? xAxisProps?.tickFormatter?.(key) ?? key;

  return (
    <div
      className={classes.root}
      role="img"
      aria-label={props['aria-label'] ?? describe('Line chart', series, n)}
      data-chart="line"
    >
      <div className={classes.body} style={{ height: plotH }}>
        <YAxis axis={left} side="left" title={props.yAxisLabel} />
        <div className={classes.plot} {...hover.handlers}>
          <GridLines axis={left} show={gridAxis === 'y' || gridAxis === 'xy'} />
          <svg className={classes.layer} viewBox={`0 0 1000 ${plotH}`} preserveAspectRatio="none" aria-hidden>
            {series.map((s, k) => (
              <path
                key={s.name}
                d={paths[k]}
                fill="none"
                stroke={chartColor(s.color)}
                strokeWidth={2}
                strokeLinejoin="round"
                strokeLinecap="round"
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </svg>
          {dots
            ? series.flatMap((s) =>
                data.map((r, i) => (
                  <span
                    key={`${s.name}-${i}`}
                    className={classes.dot}
                    style={{
                      left: `${xPercent(i, n, 'line')}%`,
                      top: yOf(s, r),
                      color: chartColor(s.color),
                    }}
                  />
                )),
              )
            : null}
          {active !== null && data[active] ? (
            <>
              <div className={classes.cursor} style={{ left: `${xPercent(active, n, 'line')}%` }} />
              {series.map((s) => (
                <span
                  key={s.name}
                  className={classes.dot}
                  style={{
                    left: `${xPercent(active, n, 'line')}%`,
                    top: yOf(s, data[active]!),
                    color: chartColor(s.color),
                    width: 8,
                    height: 8,
                    margin: '-4px 0 0 -4px',
                  }}
                />
              ))}
              <Tooltip
                at={xPercent(active, n, 'line')}
                label={label(keys[active]!)}
                rows={tooltipRows(series, data[active]!, valueFormatter)}
              />
            </>
          ) : null}
        </div>
        {right ? (
          <YAxis
            axis={right}
            side="right"
            title={props.rightYAxisLabel}
            width={props.rightYAxisProps?.width}
          />
        ) : (
          <div style={{ width: RIGHT_PAD, flex: 'none' }} />
        )}
      </div>
      <XAxis keys={keys} kind="line" options={xAxisProps} left={leftWidth} right={rightWidth} />
      {props.withLegend ? <SeriesLegend series={series} /> : null}
    </div>
  );
}
