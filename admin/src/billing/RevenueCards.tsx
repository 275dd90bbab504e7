import AutorenewIcon from '@mui/icons-material/Autorenew';
import FlagIcon from '@mui/icons-material/Flag';
import PointOfSaleIcon from '@mui/icons-material/PointOfSale';
import { Box } from '@mui/material';
import { useDataProvider } from 'react-admin';
import { StatCard } from '../dashboard/StatCard';
import type { ConsoleDataProvider } from '../dataProvider';
import { monthLabel } from '../statements/labels';
import { LoadError } from '../common/Loaded';
import { useConsoleQuery } from '../common/useConsoleQuery';
import { money } from './labels';

/** The dashboard's money: revenue this month (less refunds), recurring revenue, accounts flagged after refunds. */
export function RevenueCards() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const revenue = useConsoleQuery({
    queryKey: ['revenue'],
    read: () => dataProvider.getRevenue(),
    isAnswer: (data) => typeof data.monthToDateCents === 'number',
    forbidden: 'You do not have access to revenue.',
    failed: 'Unknown error',
  });
  // The cards keep their place while the figures load; a failure replaces them.
  if (revenue.isError && !revenue.isFetching) return <LoadError message={`Could not load the revenue figures. ${revenue.message}`} onRetry={() => void revenue.refetch()} />;
  const r = revenue.data;
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
