import { useState, type CSSProperties, type PointerEvent } from 'react';
import classes from './charts.module.css';
import { chartColor, labelIndexes, niceTicks, percentOf } from './scale.ts';

export type ChartSeries = {
  name: string;
  label?: string;
  color: string;
  /** Drawn against the right axis (LineChart with `withRightYAxis`). */
  yAxisId?: 'left' | 'right';
};

export type Row = Record<string, unknown>;

/** The category axis: which labels it shows and how (the names follow recharts', as @mantine/charts took them). */
export type XAxisOptions = {
  /** Label only these keys (e.g. the first day of each month). */
  ticks?: readonly string[];
  /** 0: every label; otherwise about eight, keeping the first and the last. */
  interval?: 0 | 'preserveStartEnd';
  tickFormatter?: (key: string) => string;
  /** Labels slanted (any non-zero angle draws them at -30°, ending under their bar). */
  angle?: number;
  /** The label row's height in px. */
  height?: number;
  tick?: { fontSize?: number };
  textAnchor?: string;
  minTickGap?: number;
};

export type CartesianProps = {
  /** The height of the plot and its labels, in px (a legend adds its row below). */
  h: number;
  data: readonly Row[];
  /** The key of each row's category (a day, a channel). */
  dataKey: string;
  series: readonly ChartSeries[];
  valueFormatter?: (n: number) => string;
  withLegend?: boolean;
  /** Accepted for the call sites' sake: the legend is always under the chart. */
  legendProps?: unknown;
  /** Horizontal grid lines unless 'none' or 'x'. */
  gridAxis?: 'x' | 'y' | 'xy' | 'none';
  xAxisProps?: XAxisOptions;
  yAxisProps?: { allowDecimals?: boolean };
  tooltipProps?: { labelFormatter?: (key: unknown) => string };
  'aria-label'?: string;
};

export const numberOf = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
export const labelOf = (s: ChartSeries): string => s.label ?? s.name;
const plain = (n: number) => n.toLocaleString('en-US');

/** Where category i sits across the plot, in percent: on the edges for lines, in the middle of its band for bars. */
export const xPercent = (i: number, n: number, kind: 'line' | 'bar'): number =>
  kind === 'bar' ? ((i + 0.5) / n) * 100 : n <= 1 ? 50 : (i / (n - 1)) * 100;

/** A value axis: its ticks, its top, its labels and the width they need. */
export function valueAxis(max: number, allowDecimals: boolean | undefined, format?: (n: number) => string) {
  const ticks = niceTicks(max, 5, allowDecimals === true);
  const labels = ticks.map((t) => (format ?? plain)(t));
  const top = ticks[ticks.length - 1]!;
  const width = Math.max(28, Math.max(...labels.map((l) => l.length)) * 6.5 + 14);
  return { ticks, labels, top, width };
}

export type ValueAxis = ReturnType<typeof valueAxis>;

export function YAxis({
  axis,
  side,
  title,
  width,
}: {
  axis: ValueAxis;
  side: 'left' | 'right';
  title?: string;
  width?: number;
}) {
  const w = (width ?? axis.width) + (title ? 18 : 0);
  return (
    <div
      className={`${classes.yAxis} ${side === 'left' ? classes.yAxisLeft : classes.yAxisRight}`}
      style={{ width: w }}
    >
      {axis.ticks.map((t, i) => (
        <span key={t} className={classes.yTick} style={{ bottom: `${percentOf(t, axis.top)}%` }}>
          {axis.labels[i]}
        </span>
      ))}
      {title ? <span className={classes.axisTitle}>{title}</span> : null}
    </div>
  );
}

export function GridLines({ axis, show }: { axis: ValueAxis; show: boolean }) {
  if (!show) return null;
  return (
    <>
      {axis.ticks.slice(1).map((t) => (
        <div key={t} className={classes.grid} style={{ bottom: `${percentOf(t, axis.top)}%` }} />
      ))}
    </>
  );
}

export function XAxis({
  keys,
  kind,
  options = {},
  left,
  right,
}: {
  keys: readonly string[];
  kind: 'line' | 'bar';
  options?: XAxisOptions;
  left: number;
  right: number;
}) {
  const shown = labelIndexes(keys, { only: options.ticks, every: options.interval === 0 });
  const angled = Boolean(options.angle);
  const style: CSSProperties = {
    marginLeft: left,
    marginRight: right,
    height: options.height ?? 24,
    fontSize: options.tick?.fontSize,
  };
  return (
    <div className={classes.xAxis} style={style}>
      {shown.map((i, k) => {
        const text = options.tickFormatter ? options.tickFormatter(keys[i]!) : keys[i]!;
        const thin = !options.ticks && options.interval !== 0 && k % 2 === 1 && k !== shown.length - 1;
        return (
          <span
            key={i}
            className={`${classes.xTick} ${angled ? classes.xTickAngled : ''} ${thin ? classes.xTickThin : ''}`}
            style={{ left: `${xPercent(i, keys.length, kind)}%` }}
            title={text === keys[i] ? undefined : keys[i]}
          >
            {text}
          </span>
        );
      })}
    </div>
  );
}

export function Legend({ series }: { series: readonly { label: string; color: string }[] }) {
  return (
    <div className={classes.legend}>
      {series.map((s) => (
        <span key={s.label} className={classes.legendItem}>
          <span className={classes.swatch} style={{ background: chartColor(s.color) }} />
          {s.label}
        </span>
      ))}
    </div>
  );
}

/** The category under the pointer, from its position across the plot. */
export function useHover(n: number, kind: 'line' | 'bar') {
  const [index, setIndex] = useState<number | null>(null);
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (box.width <= 0 || n === 0) return;
    const rel = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
    const i = kind === 'bar' ? Math.min(n - 1, Math.floor(rel * n)) : Math.round(rel * (n - 1));
    setIndex((prev) => (prev === i ? prev : i));
  };
  return { index, handlers: { onPointerMove, onPointerLeave: () => setIndex(null) } };
}

/** The values of one category, beside the pointer (flipped to the left on the right half). */
export function Tooltip({
  at,
  label,
  rows,
}: {
  at: number;
  label?: string;
  rows: readonly { label: string; color: string; value: string }[];
}) {
  const style: CSSProperties =
    at > 50 ? { right: `calc(${100 - at}% + 12px)`, top: 8 } : { left: `calc(${at}% + 12px)`, top: 8 };
  return (
    <div className={classes.tooltip} style={style} role="presentation">
      {label ? <div className={classes.tooltipLabel}>{label}</div> : null}
      {rows.map((r) => (
        <div key={r.label} className={classes.tooltipRow}>
          <span className={classes.swatch} style={{ background: chartColor(r.color) }} />
          {r.label}
          <span className={classes.tooltipValue}>{r.value}</span>
        </div>
      ))}
    </div>
  );
}

/** What a screen reader hears for a chart without its own label. */
/** The tooltip's rows for one category: each series' name, colour and formatted value. */
export const tooltipRows = (series: readonly ChartSeries[], row: Row, format?: (n: number) => string) =>
  series.map((s) => ({
    label: labelOf(s),
    color: s.color,
    value: (format ?? String)(numberOf(row[s.name])),
  }));

/** The cartesian charts' legend: one entry per series. */
export const SeriesLegend = ({ series }: { series: readonly ChartSeries[] }) => (
  <Legend series={series.map((s) => ({ label: labelOf(s), color: s.color }))} />
);

export function describe(kind: string, series: readonly ChartSeries[], n: number): string {
  return `${kind} of ${series.map(labelOf).join(', ')} (${n} ${n === 1 ? 'point' : 'points'})`;
}

export { classes };
