import { PAYOUT_STATUSES, type PayoutStatus } from '../../../events/royalty-values';

/** Payout statuses as the console names them (the talent's portal speaks to the talent). */
export const PAYOUT_LABELS: Record<PayoutStatus, string> = {
  paid: 'Paid',
  due: 'Due',
  'nothing-due': 'Nothing due (under a cent)',
};

/** Chip colours readable at WCAG AA: dark text on light tints, white only on the dark green. */
export const PAYOUT_CHIP_STYLES: Record<PayoutStatus, { bgcolor: string; color: string }> = {
  paid: { bgcolor: '#1b5e20', color: '#ffffff' },
  due: { bgcolor: '#fff4e5', color: '#663c00' },
  'nothing-due': { bgcolor: '#eeeeee', color: '#424242' },
};

export const PAYOUT_CHOICES = PAYOUT_STATUSES.map((id) => ({ id, name: PAYOUT_LABELS[id] }));

const monthName = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `2026-11` as "November 2026". */
export const monthLabel = (month: string) => monthName.format(new Date(`${month}-01T00:00:00Z`));

/** The Statements list filtered to one month (react-admin's hash route). */
export const statementsOfMonth = (month: string) => `#/statements?filter=${encodeURIComponent(JSON.stringify({ month }))}`;

/** The payout CSV's file name, as the API names it. */
export const payoutCsvName = (month: string) => `humanly-payouts-${month}.csv`;
