import { PAYOUT_STATUSES, type PayoutStatus } from '../../../events/royalty-values';

/** Payout statuses as the console names them (the talent's portal speaks to the talent). */
export const PAYOUT_LABELS: Record<PayoutStatus, string> = {
  paid: 'Paid',
  due: 'Due',
  'awaiting-details': 'Awaiting payout details',
  'nothing-due': 'Nothing due (under a cent)',
};

export const PAYOUT_COLORS: Record<PayoutStatus, 'default' | 'warning' | 'success' | 'info'> = {
  paid: 'success',
  due: 'warning',
  'awaiting-details': 'info',
  'nothing-due': 'default',
};

export const PAYOUT_CHOICES = PAYOUT_STATUSES.map((id) => ({ id, name: PAYOUT_LABELS[id] }));

const monthName = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `2026-11` as "November 2026". */
export const monthLabel = (month: string) => monthName.format(new Date(`${month}-01T00:00:00Z`));

/** The Statements list filtered to one month (react-admin's hash route). */
export const statementsOfMonth = (month: string) => `#/statements?filter=${encodeURIComponent(JSON.stringify({ month }))}`;

/** The payout CSV's file name, as the API names it. */
export const payoutCsvName = (month: string) => `humanly-payouts-${month}.csv`;
