import AutorenewIcon from '@mui/icons-material/Autorenew';
import FlagIcon from '@mui/icons-material/Flag';
import PointOfSaleIcon from '@mui/icons-material/PointOfSale';
import { Alert, Box, Button } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { RevenueResponse } from '../../../events/payments';
import { StatCard } from '../dashboard/StatCard';
import type { ConsoleDataProvider } from '../dataProvider';
import { monthLabel } from '../statements/labels';
import { errorText } from '../users/labels';
import { money } from './labels';

type RevenueState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; revenue: RevenueResponse };

/** The dashboard's money: revenue this month (less refunds), recurring revenue, accounts flagged after refunds. */
export function RevenueCards() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<RevenueState>({ status: 'loading' });
  useEffect(() => {
    let cancelled = false;
    dataProvider.getRevenue().then(
      (result) => {
        if (cancelled) return;
        if (typeof result?.data?.monthToDateCents !== 'number') setState({ status: 'error', message: 'You do not have access to revenue.' });
        else setState({ status: 'ready', revenue: result.data });
      },
      (e: unknown) => !cancelled && setState({ status: 'error', message: errorText(e, 'Unknown error') }),
    );
    return () => {
      cancelled = true;
    };
  }, [dataProvider, attempt]);
  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  if (state.status === 'error') {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={reload}>
            Retry
          </Button>
        }
      >
        Could not load the revenue figures. {state.message}
      </Alert>
    );
  }
  const r = state.status === 'ready' ? state.revenue : undefined;
  const loading = '…';
  return (
    <Box data-testid="revenue-cards" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
      <StatCard
        id="revenue-month"
        icon={<PointOfSaleIcon color="primary" />}
        title="Revenue this month"
        value={r ? money(r.monthToDateCents) : loading}
        caption={r ? `Paid in ${monthLabel(r.month)} (UTC), less refunds` : 'Loading…'}
      />
      <StatCard
        id="revenue-recurring"
        icon={<AutorenewIcon color="primary" />}
        title="Recurring revenue"
        value={r ? `${money(r.recurringCents)} a month` : loading}
        caption={r ? `${r.activeSubscriptions} ${r.activeSubscriptions === 1 ? 'subscription' : 'subscriptions'} active, past due or ending` : 'Loading…'}
      />
      <StatCard
        id="refund-flags"
        icon={<FlagIcon color={r?.flaggedAccounts ? 'warning' : 'primary'} />}
        title="Spent refunded credits"
        value={r ? String(r.flaggedAccounts) : loading}
        caption="Accounts that spent credits later refunded or lost in a dispute"
      />
    </Box>
  );
}
