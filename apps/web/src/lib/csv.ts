/**
 * Saving files the browser holds. The CSV text itself comes from the shared writer (`@flywheel/shared/csv`:
 * the product's CSV format, and a cell that would run as a spreadsheet formula written as text), the same one the
 * server's exports use.
 */

/** Saves a CSV text as `<name>.csv` through a temporary link. */
export function downloadCsv(name: string, csv: string): void {
  saveFile(name.endsWith('.csv') ? name : `${name}.csv`, new Blob([csv], { type: 'text/csv;charset=utf-8' }));
}

/** Saves a file the browser holds (a Blob) under `fileName` through a temporary link. */
export function saveFile(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
