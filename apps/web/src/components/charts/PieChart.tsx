import { useState, type CSSProperties } from 'react';
import { classes, Tooltip } from './parts.tsx';
import { chartColor } from './scale.ts';

export type PieSlice = { name: string; value: number; color: string };

export type PieChartProps = {
  data: readonly PieSlice[];
  /** Width and height in px. */
  size?: number;
  /** A ring this thick instead of a whole pie. */
  thickness?: number;
  /** Text in the middle of a ring. */
  chartLabel?: string;
  withTooltip?: boolean;
  valueFormatter?: (n: number) => string;
  /** Accepted for the call sites' sake (the tooltip always shows the slice under the pointer; no label lines). */
  tooltipDataSource?: 'segment' | 'all';
  withLabelsLine?: boolean;
  role?: string;
  'aria-label'?: string;
  style?: CSSProperties;
};

const point = (r: number, angle: number, c: number) =>
  `${(c + r * Math.sin(angle)).toFixed(2)} ${(c - r * Math.cos(angle)).toFixed(2)}`;

/** One slice from angle a to b (radians, clockwise from 12 o'clock), a ring when `inner` > 0. */
function slicePath(a: number, b: number, outer: number, inner: number, c: number): string {
  // A whole circle is drawn as two halves (an arc cannot start and end at the same point).
  if (b - a >= Math.PI * 2 - 1e-6)
    return `${slicePath(a, a + Math.PI, outer, inner, c)}${slicePath(a + Math.PI, b, outer, inner, c)}`;
  const large = b - a > Math.PI ? 1 : 0;
  const outerArc = `M${point(outer, a, c)}A${outer} ${outer} 0 ${large} 1 ${point(outer, b, c)}`;
  if (inner <= 0) return `${outerArc}L${c} ${c}Z`;
  return `${outerArc}L${point(inner, b, c)}A${inner} ${inner} 0 ${large} 0 ${point(inner, a, c)}Z`;
}

/** A pie (or, with `thickness`, a ring); hovering a slice shows its name and value. */
export function PieChart(props: PieChartProps) {
  const size = props.size ?? 160;
  const c = size / 2;
  const outer = c - 1;
  const inner = props.thickness ? Math.max(0, outer - props.thickness) : 0;
  const total = props.data.reduce((s, d) => s + Math.max(0, d.value), 0);
  const [hover, setHover] = useState<number | null>(null);
  let angle = 0;
  const slices = props.data.map((d) => {
    const from = angle;
    angle += total > 0 ? (Math.max(0, d.value) / total) * Math.PI * 2 : 0;
    return { ...d, from, to: angle };
  });
  const label =
    props['aria-label'] ??
    `Pie chart: ${props.data.map((d) => `${d.name} ${(props.valueFormatter ?? String)(d.value)}`).join(', ')}`;
  const shown = hover !== null ? slices[hover] : undefined;

  return (
    <div
      className={`${classes.root} ${classes.pie}`}
      style={{ width: size, height: size, ...props.style }}
      role={props.role ?? 'img'}
      aria-label={label}
      data-chart="pie"
      onPointerLeave={() => setHover(null)}
    >
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden>
        {total === 0 ? (
          <path d={slicePath(0, Math.PI * 2, outer, inner, c)} fill="var(--mantine-color-gray-2)" />
        ) : (
          slices.map((s, i) =>
            s.to > s.from ? (
              <path
                key={s.name}
                className={classes.segment}
                d={slicePath(s.from, s.to, outer, inner, c)}
                fill={chartColor(s.color)}
                stroke="var(--mantine-color-white)"
                strokeWidth={1}
                onPointerEnter={() => setHover(i)}
              />
            ) : null,
          )
        )}
      </svg>
      {props.chartLabel ? <div className={classes.pieLabel}>{props.chartLabel}</div> : null}
      {props.withTooltip && shown ? (
        <Tooltip
          at={((Math.sin((shown.from + shown.to) / 2) + 1) / 2) * 100}
          rows={[
            { label: shown.name, color: shown.color, value: (props.valueFormatter ?? String)(shown.value) },
          ]}
        />
      ) : null}
    </div>
  );
}

/** A ring with a label in the middle (PieChart with a thickness). */
export function DonutChart(props: PieChartProps) {
  return <PieChart thickness={20} {...props} />;
}
