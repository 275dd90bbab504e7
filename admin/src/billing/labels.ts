import type { SubscriptionState } from '../../../events/payment-values';
import type { PaymentRecord } from '../../../events/payments';

/** "$1,234.50": cents as the console shows money (always two decimals). */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Dollars typed in the refund dialog ("12", "12.5", "12.50") as cents; undefined when it is not an
 * amount with at most two decimals.
 */
export function centsOfDollars(text: string): number | undefined {
  const m = /^\s*\$?\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

export const PAYMENT_STATUS_LABELS: Record<PaymentRecord['status'], string> = {
  paid: 'Paid',
  failed: 'Payment failed',
  open: 'Unpaid',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
  disputed: 'Disputed',
  dispute_lost: 'Dispute lost',
};

/** Chip colours with enough contrast for white text (MUI's warning and info do not reach 4.5:1). */
export const PAYMENT_STATUS_COLORS: Record<PaymentRecord['status'], 'default' | 'success' | 'error'> = {
  paid: 'success',
  failed: 'error',
  open: 'default',
  refunded: 'default',
  partially_refunded: 'default',
  disputed: 'error',
  dispute_lost: 'error',
};

export const SUBSCRIPTION_STATE_LABELS: Record<SubscriptionState, string> = {
  active: 'Active',
  past_due: 'Past due: Stripe is retrying the renewal',
  canceling: 'Ends at the period’s end',
  ended: 'Ended',
};

/** Whether the console offers a refund: paid at Stripe, not fully refunded, not disputed. */
export const refundable = (p: PaymentRecord) => (p.status === 'paid' || p.status === 'partially_refunded') && p.refundedCents < p.amountCents;

/** The flag's words: credits spent before a refund or a lost dispute took their purchase back. */
export const flagText = (credits: number) =>
  `Spent ${credits} ${credits === 1 ? 'credit' : 'credits'} that were later refunded or lost in a dispute.`;
