import { Group, Pagination, Select, VisuallyHidden } from '@mantine/core';

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

type TablePagerProps = {
  /** What the table is, for the navigation's name ('Members Data pages'). */
  label: string;
  page: number;
  pageCount: number;
  onPageChange(page: number): void;
  pageSize: number;
  /** Offers a rows-per-page select when given. */
  pageSizes?: readonly number[];
  onPageSizeChange?(size: number): void;
};

/**
 * Accessible pagination: a named navigation, every control named (numbers by their page, arrows by what they
 * do), the current page marked aria-current and announced politely when it changes.
 */
export function TablePager(p: TablePagerProps) {
  const pages = Math.max(1, p.pageCount);
  const page = Math.min(Math.max(1, p.page), pages);
  const withSizes = p.pageSizes && p.onPageSizeChange;
  if (pages <= 1 && !withSizes) return null;
  return (
    <Group justify={withSizes ? 'space-between' : 'flex-end'} mt="sm" wrap="wrap" gap="sm">
      {withSizes ? (
        <Select
          aria-label="Rows per page"
          data={p.pageSizes!.map(String)}
          value={String(p.pageSize)}
          allowDeselect={false}
          w={90}
          onChange={(v) => v && p.onPageSizeChange!(Number(v))}
        />
      ) : null}
      <nav aria-label={`${p.label} pages`}>
        <Pagination
          total={pages}
          value={page}
          onChange={p.onPageChange}
          size="sm"
          getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
          getItemProps={(n) => (n === page ? { 'aria-current': 'page' } : {})}
        />
        <VisuallyHidden aria-live="polite">{`Page ${page} of ${pages}`}</VisuallyHidden>
      </nav>
    </Group>
  );
}
