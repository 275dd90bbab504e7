import { Alert, Box, Button, CircularProgress, List, ListItem, ListItemText } from '@mui/material';
import { useCallback, useEffect, useId, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import type { ConsoleDataProvider, PayoutHistory } from '../dataProvider';
import { errorText } from '../users/labels';

type HistoryState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; history: PayoutHistory };

/** A talent's payout history on their console page: the payout account's events, bank changes and payouts, newest first. */
export function PayoutHistorySection({ talentId }: { talentId: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const id = useId();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<HistoryState>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    dataProvider.getPayoutHistory(talentId).then(
      (result) => {
        if (cancelled) return;
        if (!Array.isArray(result?.data?.entries)) setState({ status: 'error', message: 'You do not have access to payouts.' });
        else setState({ status: 'ready', history: result.data });
      },
      (e: unknown) => !cancelled && setState({ status: 'error', message: errorText(e, 'The payout history could not be loaded.') }),
    );
    return () => {
      cancelled = true;
    };
  }, [dataProvider, talentId, attempt]);
  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  return (
    <Box sx={{ mt: 2 }} data-testid="payout-history-section">
      <Section title="Payout history" id={`${id}-title`}>
        {state.status === 'loading' ? (
          <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <CircularProgress size={18} /> Loading the payout history…
          </Box>
        ) : state.status === 'error' ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={reload}>
                Try again
              </Button>
            }
          >
            {state.message}
          </Alert>
        ) : state.history.entries.length === 0 ? (
          <Box color="text.secondary">No payout account or payouts yet.</Box>
        ) : (
          <List dense disablePadding data-testid="payout-history">
            {[...state.history.entries]
              .sort((a, b) => b.at.localeCompare(a.at))
              .map((e, i) => (
                <ListItem key={`${e.at}-${i}`} disableGutters divider>
                  <ListItemText primary={e.what} secondary={formatDateTime(e.at)} />
                </ListItem>
              ))}
          </List>
        )}
      </Section>
    </Box>
  );
}
