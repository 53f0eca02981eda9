import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { captureDownloads } from '../testing/downloads.ts';
import { renderUi } from '../testing/render.tsx';
import { DataTable, type DataColumn, type DataSort } from './DataTable.tsx';

type Row = { id: string; name: string; count: number };
const ROWS: Row[] = Array.from({ length: 12 }, (_, i) => ({
  id: `r${i + 1}`,
  name: `Name ${String(i + 1).padStart(2, '0')}`,
  count: (i * 7) % 12,
}));
const COLUMNS: DataColumn<Row>[] = [
  { id: 'name', header: 'Name', value: (r) => r.name, sortable: true },
  {
    id: 'count',
    header: 'Count',
    value: (r) => r.count,
    sortable: true,
    align: 'right',
    csv: { header: 'Total' },
  },
];

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Things' }))
    .getAllByRole('row')
    .slice(1);
const names = () => bodyRows().map((r) => within(r).getByText(/^Name \d+$/).textContent);

describe('DataTable', () => {
  it('client mode: search, sort by a header (aria-sort), pages of 5 with named controls', async () => {
    const { user } = renderUi(
      <DataTable
        label="Things"
        columns={COLUMNS}
        rows={ROWS}
        rowId={(r) => r.id}
        pageSize={5}
        defaultSort={{ id: 'name', desc: false }}
        search={{ label: 'Search things' }}
      />,
    );
    expect(names()).toEqual(['Name 01', 'Name 02', 'Name 03', 'Name 04', 'Name 05']);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    const pages = screen.getByRole('navigation', { name: 'Things pages' });
    expect(within(pages).getByRole('button', { name: '1' })).toHaveAttribute('aria-current', 'page');
    expect(within(pages).getByRole('button', { name: 'Next page' })).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Previous page' })).toBeInTheDocument();
    expect(within(pages).getByText('Page 1 of 3')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: '3' }));
    expect(names()).toEqual(['Name 11', 'Name 12']);
    expect(within(pages).getByText('Page 3 of 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Count' }));
    expect(screen.getByRole('columnheader', { name: 'Count' })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: 'Name' })).not.toHaveAttribute('aria-sort');
    expect(bodyRows()[0]!.textContent).toContain('11');

    await user.type(screen.getByRole('textbox', { name: 'Search things' }), 'name 1');
    expect(names().sort()).toEqual(['Name 10', 'Name 11', 'Name 12']);
    expect(screen.queryByRole('navigation', { name: 'Things pages' })).toBeNull();
  });

  it('selection: page, all matching, CSV of the selection or of every row', async () => {
    const dl = captureDownloads();
    const { user } = renderUi(
      <DataTable
        label="Things"
        columns={COLUMNS}
        rows={ROWS}
        rowId={(r) => r.id}
        pageSize={5}
        selection={{ rowLabel: (r) => r.name }}
        countLabel={(n) => `${n} things`}
        csv={{ fileName: 'Things' }}
      />,
    );
    await user.click(screen.getByRole('checkbox', { name: 'Select Name 02' }));
    expect(screen.getByText('1 selected · 12 things')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all rows on this page' })).toHaveProperty(
      'indeterminate',
      true,
    );
    await user.click(screen.getByRole('button', { name: 'CSV' }));
    expect(dl.saved.at(-1)).toEqual({
      name: 'Things.csv',
      text: '\uFEFF"Name","Total"\r\n"Name 02",7\r\n',
    });

    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByText('5 selected · 12 things')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Select all 12 matching' }));
    expect(screen.getByText('12 selected · 12 things')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByText('12 things')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'CSV' }));
    expect(dl.saved).toHaveLength(2);
    expect(dl.saved.at(-1)!.text.split('\r\n')).toHaveLength(14);
  });

  it('server mode: shows the rows given, reports page, sort and page size, CSV through the caller', async () => {
    const onPage = vi.fn();
    const onExport = vi.fn(async () => {});
    function Server() {
      const [sort, setSort] = useState<DataSort>({ id: 'count', desc: true });
      return (
        <DataTable
          label="Things"
          columns={COLUMNS}
          rows={ROWS.slice(0, 5)}
          rowId={(r) => r.id}
          server={{ page: 2, pageSize: 5, total: 40, onPageChange: onPage, sort, onSortChange: setSort }}
          pageSizes={[5, 10]}
          onPageSizeChange={() => {}}
          selection={{ rowLabel: (r) => r.name }}
          csv={{ fileName: 'Things', onExport }}
        />
      );
    }
    const { user } = renderUi(<Server />);
    expect(names()).toEqual(ROWS.slice(0, 5).map((r) => r.name));
    expect(screen.getByRole('columnheader', { name: 'Count' })).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByRole('button', { name: 'Count' }));
    expect(screen.getByRole('columnheader', { name: 'Count' })).toHaveAttribute('aria-sort', 'ascending');
    const pages = screen.getByRole('navigation', { name: 'Things pages' });
    expect(within(pages).getByRole('button', { name: '2' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(pages).getByRole('button', { name: 'Next page' }));
    expect(onPage).toHaveBeenCalledWith(3);
    expect(screen.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('5');
    // All rows on the page selected: no 'select all matching' without a way to do it on the server.
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.queryByRole('button', { name: /Select all 40/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'CSV' }));
    await waitFor(() => expect(onExport).toHaveBeenCalledWith(['r1', 'r2', 'r3', 'r4', 'r5']));
  });

  it('loading, error and empty states', () => {
    const { rerender } = renderUi(
      <DataTable
        label="Things"
        columns={COLUMNS}
        rows={undefined}
        rowId={(r) => r.id}
        loading
        emptyText="No Data found!"
      />,
    );
    expect(screen.getByRole('status', { name: 'Loading Things' })).toBeInTheDocument();
    expect(screen.queryByText(/Things/)).toBeNull();
    expect(screen.queryByText('No Data found!')).toBeNull();
    expect(screen.getByRole('table', { name: 'Things' })).toHaveAttribute('aria-busy', 'true');
    // Fetching the next rows while the previous ones are shown: busy, no loading status over them.
    rerender(
      <DataTable
        label="Things"
        columns={COLUMNS}
        rows={ROWS}
        rowId={(r) => r.id}
        loading
        emptyText="No Data found!"
      />,
    );
    expect(screen.getByRole('table', { name: 'Things' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('status', { name: 'Loading Things' })).toBeNull();
    rerender(
      <DataTable
        label="Things"
        columns={COLUMNS}
        rows={ROWS}
        rowId={(r) => r.id}
        emptyText="No Data found!"
      />,
    );
    expect(screen.getByRole('table', { name: 'Things' })).not.toHaveAttribute('aria-busy');
    rerender(
      <DataTable label="Things" columns={COLUMNS} rows={[]} rowId={(r) => r.id} emptyText="No Data found!" />,
    );
    expect(screen.getByText('No Data found!')).toBeInTheDocument();
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(1);
    rerender(
      <DataTable
        label="Things"
        columns={COLUMNS}
        rows={[]}
        rowId={(r) => r.id}
        error="Failed to get data!"
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to get data!');
  });
});
