import PaymentsIcon from '@mui/icons-material/Payments';
import { PayoutRunPage } from './PayoutRunPage';

/** Payouts: a month's payout run through Stripe Connect, its statements, totals and reconciliation (the list is the page). */
export const payoutRuns = {
  name: 'payout-runs',
  list: PayoutRunPage,
  icon: PaymentsIcon,
  options: { label: 'Payouts' },
};
