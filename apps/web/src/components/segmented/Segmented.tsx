import { useId, type ReactNode } from 'react';
import classes from './segmented.module.css';

type Item = string | { value: string; label: ReactNode };

/**
 * Two to four choices side by side, one chosen: a radio group that looks like Mantine's SegmentedControl. Mantine's
 * measures its segments to slide an indicator under the chosen one, and places it again after every render;
 * Analytics has one on each card. Here the chosen segment is drawn by CSS, and the arrow keys move the choice as
 * in any radio group.
 */
export function Segmented({
  data,
  value,
  onChange,
  size = 'sm',
  'aria-label': label,
}: {
  data: readonly Item[];
  value: string;
  onChange(value: string): void;
  size?: 'xs' | 'sm';
  'aria-label': string;
}) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label={label} className={classes.root} data-size={size}>
      {data.map((item) => {
        const v = typeof item === 'string' ? item : item.value;
        return (
          <label key={v} className={classes.control}>
            <input
              type="radio"
              name={name}
              value={v}
              checked={v === value}
              onChange={() => onChange(v)}
              className={classes.input}
            />
            <span className={classes.label}>{typeof item === 'string' ? item : item.label}</span>
          </label>
        );
      })}
    </div>
  );
}
