import DownloadIcon from '@mui/icons-material/Download';
import { useState } from 'react';
import { Button, useDataProvider, useNotify } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';
import { saveFile } from '../common/saveFile';

/**
 * Downloads the whole waitlist as CSV. The API builds the file (every field quoted, cells that
 * a spreadsheet would run as formulas prefixed with '), so the console only saves it.
 */
export function ExportCsvButton() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const csv = await dataProvider.exportWaitlistCsv();
      if (typeof csv !== 'string') throw new Error('The export was refused.');
      saveFile(`waitlist-${new Date().toISOString().slice(0, 10)}.csv`, new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    } catch (error) {
      notify(`Could not export the waitlist. ${(error as Error).message ?? ''}`, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return <Button label="Export CSV" onClick={download} disabled={busy} startIcon={<DownloadIcon />} />;
}
