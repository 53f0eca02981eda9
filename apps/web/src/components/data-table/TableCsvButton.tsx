import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { downloadCsv } from '../../lib/csv.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure } from '../../lib/notify.tsx';
import { columnsCsv, type DataColumn } from './columns.ts';

export type TableCsv = {
  /** The file is saved as `<fileName>.csv`. */
  fileName: string;
  /** The button's accessible name (its text is 'CSV'). */
  label?: string;
  /**
   * Server mode: the caller writes the file (e.g. asks the server for every matching row) from the selected ids
   * (empty: everything the filters match). A rejection is shown as a failure toast.
   */
  onExport?(selectedIds: string[]): Promise<void> | void;
};

/** 'CSV': the selected rows, or every row when none is selected, through the csv helper (BOM, quoted, header). */
export function TableCsvButton<T>(p: {
  csv: TableCsv;
  selectedIds: string[];
  rows(): readonly T[];
  columns: readonly DataColumn<T>[];
}) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (!p.csv.onExport) {
      downloadCsv(p.csv.fileName, columnsCsv(p.columns, p.rows()));
      return;
    }
    setBusy(true);
    try {
      await p.csv.onExport(p.selectedIds);
    } catch (err) {
      notifyFailure(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} />}
      aria-label={p.csv.label}
      loading={busy}
      onClick={run}
    >
      CSV
    </Button>
  );
}
