import { useMemo, useState, type ReactNode } from 'react';
import {
  Box,
  Checkbox,
  Group,
  LoadingOverlay,
  Skeleton,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSearch, IconSelector } from '@tabler/icons-react';
import {
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type PaginationState,
  type RowSelectionState,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { matchesSearch, toColumnDefs, type DataColumn, type DataSort } from './data-table/columns.ts';
import { TableCsvButton, type TableCsv } from './data-table/TableCsvButton.tsx';
import { TablePager } from './data-table/TablePager.tsx';
import { useScrollFocus } from './data-table/use-scroll-focus.ts';
import classes from './data-table/data-table.module.css';

export type { DataColumn, DataSort } from './data-table/columns.ts';
export { columnsCsv, countColumn } from './data-table/columns.ts';

export type DataTableSelection<T> = {
  /** Controlled selection (row ids); without it the table keeps its own. */
  selected?: ReadonlySet<string>;
  onChange?(next: Set<string>): void;
  /** The accessible name of a row's checkbox: 'Select <rowLabel>'. */
  rowLabel(row: T): string;
  /** Server mode: selects every row matching the filters (the table only knows one page). */
  onSelectAllMatching?(): void;
};

/** The server pages and sorts: the table shows `rows` as one page of `total` and reports clicks. */
export type DataTableServer = {
  page: number;
  pageSize: number;
  total: number;
  onPageChange(page: number): void;
  sort?: DataSort;
  onSortChange?(sort: DataSort): void;
};

export type DataTableProps<T> = {
  /** The table's accessible name. */
  label: string;
  columns: readonly DataColumn<T>[];
  rows: readonly T[] | undefined;
  rowId(row: T): string;
  /** Extra attributes of a body row (data-* for tests and styling). */
  rowProps?(row: T): Record<string, string>;
  /** No rows yet: skeleton rows and a status named (aria-label) `Loading <label>`. */
  loading?: boolean;
  /** New rows are on their way while the old ones show: a light overlay. */
  refreshing?: boolean;
  error?: string | null;
  /** Shown under the header when there is nothing to show (e.g. 'No Data found!'). */
  emptyText?: string;
  /** A search box: client mode filters the rows; with value/onChange the caller searches (server mode). */
  search?: {
    label: string;
    placeholder?: string;
    value?: string;
    onChange?(value: string): void;
    width?: number;
  };
  /** Controls after the search box. */
  toolbar?: ReactNode;
  /** 'N selected · <countLabel(total)>' on the right of the toolbar. */
  countLabel?(total: number): ReactNode;
  /** Client mode: the initial sort. */
  defaultSort?: DataSort;
  /**
   * Client paging and search over rows the caller sorted (the server, over more rows than are loaded): the
   * header shows this sort and reports clicks, and the rows keep their order.
   */
  sortedBy?: { sort: DataSort; onChange(sort: DataSort): void };
  /** Client mode: rows per page (without it every row shows). */
  pageSize?: number;
  /** A rows-per-page select (client or server mode). */
  pageSizes?: readonly number[];
  onPageSizeChange?(size: number): void;
  server?: DataTableServer;
  selection?: DataTableSelection<T>;
  csv?: TableCsv;
  /** Below this width the table scrolls sideways (narrow screens). */
  minWidth?: number;
  maxHeight?: number;
  striped?: boolean;
  highlightOnHover?: boolean;
  stickyHeader?: boolean;
  verticalSpacing?: 'xs' | 'sm' | 'md';
};

const SKELETON_ROWS = 3;
/** The classes Table.Tr and Table.Td give their element (the hashed module class and the static one). */
const TR_CLASS = `${Table.classes.tr} mantine-Table-tr`;
const TD_CLASS = `${Table.classes.td} mantine-Table-td`;

const applyUpdater = <S,>(u: Updater<S>, old: S): S =>
  typeof u === 'function' ? (u as (o: S) => S)(old) : u;

/**
 * A table from column definitions (TanStack Table over Mantine's Table): search, sortable headers (aria-sort),
 * client or server pagination, row selection, CSV of the selection or of every row, and its loading, empty and
 * error states.
 */
export function DataTable<T>(p: DataTableProps<T>) {
  const server = p.server;
  const striped = p.striped ?? true;
  const [ownQuery, setOwnQuery] = useState('');
  const query = p.search?.value ?? ownQuery;
  const setQuery = p.search?.onChange ?? setOwnQuery;
  const [ownSelected, setOwnSelected] = useState<Set<string>>(new Set());
  const selected = p.selection?.selected ?? ownSelected;
  const setSelected = p.selection?.onChange ?? setOwnSelected;
  const [ownSorting, setSorting] = useState<SortingState>(p.defaultSort ? [p.defaultSort] : []);
  const sorting: SortingState = server?.sort ? [server.sort] : p.sortedBy ? [p.sortedBy.sort] : ownSorting;
  const callerSorts = Boolean(server || p.sortedBy);
  const viewportRef = useScrollFocus(p.label);
  const [pagination, setPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: p.pageSize ?? Number.MAX_SAFE_INTEGER,
  });

  const columnDefs = useMemo(() => toColumnDefs(p.columns), [p.columns]);
  const clientSearch = !server && p.search && p.search.onChange === undefined;
  const data = useMemo(
    () => (clientSearch ? (p.rows ?? []).filter((r) => matchesSearch(r, p.columns, query)) : (p.rows ?? [])),
    [p.rows, p.columns, clientSearch, query],
  );
  const rowSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries([...selected].map((id) => [id, true])),
    [selected],
  );

  const table = useReactTable<T>({
    data: data as T[],
    columns: columnDefs,
    getRowId: (row) => p.rowId(row),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: callerSorts ? undefined : getSortedRowModel(),
    getPaginationRowModel: server || p.pageSize === undefined ? undefined : getPaginationRowModel(),
    manualSorting: callerSorts,
    manualPagination: Boolean(server),
    rowCount: server?.total,
    enableSortingRemoval: false,
    autoResetPageIndex: !server,
    state: {
      sorting,
      pagination: server ? { pageIndex: server.page - 1, pageSize: server.pageSize } : pagination,
      rowSelection,
    },
    onSortingChange: (u) => {
      const next = applyUpdater(u, sorting);
      const first = next[0] ? { id: next[0].id, desc: next[0].desc } : null;
      if (server) {
        if (first) server.onSortChange?.(first);
      } else if (p.sortedBy) {
        if (first) p.sortedBy.onChange(first);
      } else setSorting(next);
    },
    onPaginationChange: (u) => {
      if (!server) setPagination((old) => applyUpdater(u, old));
    },
    onRowSelectionChange: (u) => {
      const next = applyUpdater(u, rowSelection);
      setSelected(new Set(Object.keys(next).filter((id) => next[id])));
    },
  });

  const pageRows = table.getRowModel().rows;
  const total = server ? server.total : data.length;
  const pageCount = server ? Math.ceil(server.total / server.pageSize) : table.getPageCount();
  const page = server ? server.page : pagination.pageIndex + 1;
  const allOnPage = pageRows.length > 0 && pageRows.every((r) => selected.has(r.id));
  const someOnPage = pageRows.some((r) => selected.has(r.id));
  const canSelectAllMatching =
    p.selection && allOnPage && total > pageRows.length && (server ? p.selection.onSelectAllMatching : true);
  const allMatchingSelected = !server && data.length > 0 && data.every((r) => selected.has(p.rowId(r)));
  const colSpan = p.columns.length + (p.selection ? 1 : 0);

  const sortHeader = (c: DataColumn<T>) => {
    const col = table.getColumn(c.id);
    if (!col?.getCanSort()) return c.header;
    const dir = col.getIsSorted();
    const Icon = dir === 'asc' ? IconArrowUp : dir === 'desc' ? IconArrowDown : IconSelector;
    return (
      <UnstyledButton onClick={col.getToggleSortingHandler()} fw={600} fz="sm">
        <Group gap={4} wrap="nowrap" justify={c.align === 'right' ? 'flex-end' : undefined}>
          {c.header}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    );
  };
  const ariaSort = (c: DataColumn<T>) => {
    const dir = table.getColumn(c.id)?.getIsSorted();
    return dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined;
  };

  const exportRows = () => {
    const ordered = server ? data : table.getPrePaginationRowModel().rows.map((r) => r.original);
    return selected.size ? ordered.filter((r) => selected.has(p.rowId(r))) : ordered;
  };

  const showToolbar = p.search || p.toolbar || p.countLabel || p.csv;
  return (
    <Box>
      {showToolbar ? (
        <Group justify="space-between" wrap="wrap" gap="sm" mb="sm">
          <Group gap="sm" wrap="wrap">
            {p.search ? (
              <TextInput
                aria-label={p.search.label}
                placeholder={p.search.placeholder ?? p.search.label}
                leftSection={<IconSearch size={16} />}
                value={query}
                w={p.search.width ?? 260}
                onChange={(e) => setQuery(e.currentTarget.value)}
              />
            ) : null}
            {p.toolbar}
          </Group>
          <Group gap="sm" wrap="wrap">
            {p.countLabel ? (
              <Text fz="sm" c="dimmed" component="div">
                {selected.size > 0 ? `${selected.size} selected · ` : ''}
                {p.countLabel(total)}
              </Text>
            ) : null}
            {p.selection && selected.size > 0 ? (
              <UnstyledButton fz="sm" c="blue.8" onClick={() => setSelected(new Set())}>
                Clear selection
              </UnstyledButton>
            ) : null}
            {p.csv ? (
              <TableCsvButton csv={p.csv} selectedIds={[...selected]} rows={exportRows} columns={p.columns} />
            ) : null}
          </Group>
        </Group>
      ) : null}
      {canSelectAllMatching && !allMatchingSelected ? (
        <Group gap="xs" mb="xs">
          <Text fz="sm">{`All ${pageRows.length} rows on this page are selected.`}</Text>
          <UnstyledButton
            fz="sm"
            c="blue"
            onClick={() => (server ? p.selection!.onSelectAllMatching!() : table.toggleAllRowsSelected(true))}
          >
            {`Select all ${total} matching`}
          </UnstyledButton>
        </Group>
      ) : null}
      <Box pos="relative">
        <LoadingOverlay
          visible={Boolean(p.refreshing && pageRows.length)}
          overlayProps={{ blur: 0, opacity: 0.4 }}
        />
        {/* The browser's own scrolling: Mantine's ScrollArea measured the table after its first render and
            then added its scrollbar (two more changes to the page, the last ~180 ms after its render). A
            table that scrolls (on a phone) takes keyboard focus so arrow keys can scroll it. */}
        <Table.ScrollContainer
          ref={viewportRef}
          type="native"
          minWidth={p.minWidth ?? 0}
          className={classes.scroll}
          style={p.maxHeight === undefined ? undefined : { maxHeight: p.maxHeight, overflowY: 'auto' }}
        >
          <Table
            aria-label={p.label}
            // Rows being fetched (a new page, filter or sort; the previous rows stay until they come).
            aria-busy={p.loading || undefined}
            striped={striped}
            highlightOnHover={p.highlightOnHover}
            stickyHeader={p.stickyHeader}
            verticalSpacing={p.verticalSpacing}
          >
            <Table.Thead>
              <Table.Tr>
                {p.selection ? (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Select all rows on this page"
                      checked={allOnPage}
                      indeterminate={someOnPage && !allOnPage}
                      onChange={(e) => table.toggleAllPageRowsSelected(e.currentTarget.checked)}
                    />
                  </Table.Th>
                ) : null}
                {p.columns.map((c) => (
                  <Table.Th
                    key={c.id}
                    ta={c.align}
                    w={c.width}
                    aria-sort={ariaSort(c)}
                    style={{ whiteSpace: c.headerWrap ? 'normal' : 'nowrap' }}
                  >
                    {sortHeader(c)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {/* Body rows are plain elements with Table.Tr's and Table.Td's classes and data attributes: the same
                  markup and look, without a Mantine component per cell (a page of 25 members has ~250 cells, and
                  they were half the table's first render). */}
              {pageRows.map((row) => (
                <tr
                  key={row.id}
                  className={TR_CLASS}
                  data-with-row-border
                  data-striped={striped ? 'odd' : undefined}
                  data-hover={p.highlightOnHover ? true : undefined}
                  {...p.rowProps?.(row.original)}
                >
                  {p.selection ? (
                    <td className={TD_CLASS}>
                      <Checkbox
                        aria-label={`Select ${p.selection.rowLabel(row.original)}`}
                        checked={row.getIsSelected()}
                        onChange={(e) => row.toggleSelected(e.currentTarget.checked)}
                      />
                    </td>
                  ) : null}
                  {p.columns.map((c) => (
                    <td
                      key={c.id}
                      className={TD_CLASS}
                      style={
                        c.align || c.fw || c.nowrap || c.minWidth
                          ? {
                              textAlign: c.align,
                              fontWeight: c.fw,
                              whiteSpace: c.nowrap ? 'nowrap' : undefined,
                              minWidth: c.minWidth,
                            }
                          : undefined
                      }
                    >
                      {c.cell ? c.cell(row.original) : c.value ? c.value(row.original) : null}
                    </td>
                  ))}
                </tr>
              ))}
              {p.loading && pageRows.length === 0
                ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                    <Table.Tr key={`skeleton-${i}`} aria-hidden>
                      <Table.Td colSpan={colSpan}>
                        <Skeleton h={14} radius="sm" />
                      </Table.Td>
                    </Table.Tr>
                  ))
                : null}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
      {p.loading && pageRows.length === 0 ? (
        // Named by aria-label, not text: the page's own 'Members Data' heading stays the only such text.
        <VisuallyHidden role="status" aria-label={`Loading ${p.label}`} />
      ) : null}
      {p.error ? (
        <Text c="red.9" ta="center" py="lg" role="alert">
          {p.error}
        </Text>
      ) : null}
      {!p.loading && !p.error && pageRows.length === 0 && p.emptyText ? (
        <Text c="dimmed" ta="center" py="lg">
          {p.emptyText}
        </Text>
      ) : null}
      <TablePager
        label={p.label}
        page={page}
        pageCount={pageCount}
        pageSize={server ? server.pageSize : pagination.pageSize}
        pageSizes={p.pageSizes}
        onPageSizeChange={
          p.onPageSizeChange &&
          ((size) => {
            if (!server) setPagination({ pageIndex: 0, pageSize: size });
            p.onPageSizeChange!(size);
          })
        }
        onPageChange={(n) => (server ? server.onPageChange(n) : table.setPageIndex(n - 1))}
      />
    </Box>
  );
}
