import DownloadIcon from '@mui/icons-material/Download';
import { Button, CircularProgress } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useListContext, useNotify } from 'react-admin';
import type { StatementSummary } from '../../../events/royalties';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../common/errorText';
import { payoutCsvName } from './labels';
import { saveFile } from '../common/saveFile';

/**
 * "Download payout CSV": the month the list is filtered to (or, unfiltered, the latest closed
 * month it shows), every statement of it with where to pay, whatever the other filters.
 */
export function DownloadPayoutsButton() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const { filterValues, data } = useListContext<StatementSummary>();
  const [busy, setBusy] = useState(false);
  const month: string | undefined = filterValues.month || (!filterValues.talentId ? data?.[0]?.month : undefined);
  const download = async () => {
    if (!month) return;
    setBusy(true);
    try {
      const csv = await dataProvider.exportPayoutsCsv(month);
      if (typeof csv !== 'string') throw new Error('The download was refused.');
      saveFile(payoutCsvName(month), new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    } catch (error) {
      notify(`Could not download the payouts. ${errorText(error, '')}`, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="small"
      onClick={download}
      disabled={!month || busy}
      startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
      title={month ? undefined : 'Filter the list to a month first'}
    >
      {month ? `Download payout CSV (${month})` : 'Download payout CSV'}
    </Button>
  );
}
