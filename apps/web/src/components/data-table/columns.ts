import type { ReactNode } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { formatCount } from '../../lib/chart-labels.ts';
import { toCsv, type CsvValue } from '@flywheel/shared/csv';

/**
 * One column of a DataTable. `value` is what the column sorts, searches and (by default) shows and exports;
 * `cell` renders something richer (a link, badges). A column without `value` neither sorts nor searches.
 */
export type DataColumn<T> = {
  id: string;
  header: string;
  value?: (row: T) => string | number;
  cell?: (row: T) => ReactNode;
  /** Header click sorts (client mode: by `value`; server mode: the caller is told the column id). */
  sortable?: boolean;
  /** Client-side search looks into this column (default: every column with a `value`). */
  searchable?: boolean;
  align?: 'left' | 'right';
  /** Header cell width (e.g. 40 for a narrow column). */
  width?: number;
  /** Keeps the cell on one line (times, dates). */
  nowrap?: boolean;
  /** Cell font weight (e.g. 600 for a total). */
  fw?: number;
  /** The header may wrap onto two lines ('Messages / count'): a narrow column of numbers. */
  headerWrap?: boolean;
  /** The cell's least width in px (a column of badges keeps whole names instead of shrinking to letters). */
  minWidth?: number;
  /** In the CSV: its header and value (default: `header` and `value`); false leaves the column out. */
  csv?: { header?: string; value?: (row: T) => CsvValue } | false;
};

export type DataSort = { id: string; desc: boolean };

/** The table's columns as TanStack column definitions (the DataColumn stays in `meta` for rendering). */
export function toColumnDefs<T>(columns: readonly DataColumn<T>[]): ColumnDef<T, unknown>[] {
  return columns.map((c) => ({
    id: c.id,
    header: c.header,
    accessorFn: c.value ? (row: T) => c.value!(row) : undefined,
    enableSorting: Boolean(c.sortable && c.value),
    enableGlobalFilter: c.value !== undefined && c.searchable !== false,
    sortDescFirst: true,
    meta: c,
  }));
}

/** Case-insensitive substring search over the searchable columns' values. */
export function matchesSearch<T>(row: T, columns: readonly DataColumn<T>[], query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return columns.some(
    (c) => c.value && c.searchable !== false && String(c.value(row)).toLowerCase().includes(q),
  );
}

/** The CSV (BOM, quoted, header row) of `rows` over the columns that export. */
export function columnsCsv<T>(columns: readonly DataColumn<T>[], rows: readonly T[]): string {
  const exported = columns.filter((c) => c.csv !== false && (c.value || c.csv?.value));
  const header = (c: DataColumn<T>) => (c.csv ? c.csv.header : undefined) ?? c.header;
  const value = (c: DataColumn<T>, row: T): CsvValue => {
    const fn = (c.csv ? c.csv.value : undefined) ?? c.value;
    return fn ? fn(row) : '';
  };
  return toCsv(
    exported.map(header),
    rows.map((r) => exported.map((c) => value(c, r))),
  );
}

/** A right-aligned count: sorts and exports the number, shows it grouped ('1,234'). */
export function countColumn<T>(header: string, value: (row: T) => number, fw?: number): DataColumn<T> {
  return { id: header, header, value, cell: (row) => formatCount(value(row)), align: 'right', fw };
}
