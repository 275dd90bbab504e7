import { Alert, Box, List, ListItem, ListItemText } from '@mui/material';
import { useId } from 'react';
import { useDataProvider } from 'react-admin';
import { Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import type { ConsoleDataProvider } from '../dataProvider';
import { Loaded } from '../common/Loaded';
import { useConsoleQuery } from '../common/useConsoleQuery';

/** A talent's payout history on their console page: the payout account's events, bank changes and payouts, newest first. */
export function PayoutHistorySection({ talentId }: { talentId: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const id = useId();
  const history = useConsoleQuery({
    queryKey: ['payout-history', talentId],
    read: () => dataProvider.getPayoutHistory(talentId),
    isAnswer: (data) => Array.isArray(data.entries),
    forbidden: 'You do not have access to payouts.',
    failed: 'The payout history could not be loaded.',
  });

  return (
    <Box sx={{ mt: 2 }} data-testid="payout-history-section">
      <Section title="Payout history" id={`${id}-title`}>
        <Loaded query={history} loading="Loading the payout history…">
          {({ entries, nameCheck }) => (
            <>
              {nameCheck?.result === 'mismatch' ? (
                <Alert severity="warning" sx={{ mb: 1.5 }} data-testid="payout-name-warning">
                  The name on the payout account ({nameCheck.accountName}) differs from the verified ID ({nameCheck.verifiedName}): {nameCheck.note}. Check who
                  owns the account before paying.
                </Alert>
              ) : null}
              {entries.length === 0 ? (
                <Box color="text.secondary">No payout account or payouts yet.</Box>
              ) : (
                <List dense disablePadding data-testid="payout-history">
                  {[...entries]
                    .sort((a, b) => b.at.localeCompare(a.at))
                    .map((e, i) => (
                      <ListItem key={`${e.at}-${i}`} disableGutters divider>
                        <ListItemText primary={e.what} secondary={formatDateTime(e.at)} />
                      </ListItem>
                    ))}
                </List>
              )}
            </>
          )}
        </Loaded>
      </Section>
    </Box>
  );
}
