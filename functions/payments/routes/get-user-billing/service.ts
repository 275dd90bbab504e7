import type Stripe from 'stripe';
import { AdminBillingResponse, SubscriptionSummary, type PaymentRecord } from '../../../../events/payments';
import type { AccountStore } from '../../../accounts';
import { NotFoundError } from '../../../shared/errors';
import { paymentStatusOf } from '../../refunds';
import { paymentRecordOf, type PaymentsStore, type StoredPayment, type SubscriptionMirror } from '../../store';

export const ACCOUNT_NOT_FOUND_MESSAGE = 'Account not found';

export interface UserBillingDeps {
  accounts: Pick<AccountStore, 'get'>;
  payments: Pick<PaymentsStore, 'paymentsOf' | 'subscriptionOf' | 'customerOf' | 'flagOf' | 'chargedPayment'>;
  /** Who asked for each refund, from the payment's own item. */
  stripe: Stripe;
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : v?.id);

/**
 * A payment as the console lists it: refunds as Stripe has them now (a refund shows at once,
 * before its event takes the credits back), and Stripe's receipt.
 */
function recordOf(payment: StoredPayment, charge?: Stripe.Charge): PaymentRecord {
  const record = paymentRecordOf(payment);
  if (!charge) return record;
  const refundedCents = Math.max(payment.refundedCents, charge.amount_refunded);
  const status = payment.status === 'disputed' || payment.status === 'dispute_lost' ? payment.status : charge.disputed ? 'disputed' : paymentStatusOf({ amountCents: charge.amount, refundedCents });
  return { ...record, refundedCents, status, ...(charge.receipt_url ? { receiptUrl: charge.receipt_url } : {}) };
}

/** An invoice Stripe could not collect (yet): shown beside the payments, with nothing to refund. */
function unpaidInvoiceRecord(invoice: Stripe.Invoice): PaymentRecord {
  return {
    id: invoice.id!,
    kind: 'subscription',
    description: invoice.lines?.data[0]?.description ?? 'Subscription invoice',
    amountCents: invoice.amount_due,
    refundedCents: 0,
    status: invoice.attempt_count > 0 ? 'failed' : 'open',
    credits: 0,
    creditsTakenBack: 0,
    creditsShortfall: 0,
    at: new Date(invoice.created * 1000).toISOString(),
    invoiceId: invoice.id!,
    ...(invoice.hosted_invoice_url ? { receiptUrl: invoice.hosted_invoice_url } : {}),
  };
}

function summaryOf(sub: SubscriptionMirror | undefined): SubscriptionSummary | undefined {
  if (!sub) return undefined;
  const parsed = SubscriptionSummary.safeParse({ id: sub.subscriptionId, plan: sub.plan, state: sub.state, currentPeriodEnd: sub.currentPeriodEnd, scheduledPlan: sub.scheduledPlan });
  return parsed.success ? parsed.data : undefined;
}

/**
 * A client's billing for the console: the subscription as last mirrored from Stripe, every
 * payment with what refunds and disputes took back, Stripe's receipts, invoices it could not
 * collect, and the credits spent before they were taken back.
 */
export async function userBilling(deps: UserBillingDeps, accountId: string): Promise<AdminBillingResponse> {
  const account = await deps.accounts.get(accountId);
  if (!account) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
  const [customerId, subscription, payments, spentRefundedCredits] = await Promise.all([
    deps.payments.customerOf(accountId),
    deps.payments.subscriptionOf(accountId),
    deps.payments.paymentsOf(accountId),
    deps.payments.flagOf(accountId),
  ]);
  const charges = new Map<string, Stripe.Charge>();
  const unpaid: PaymentRecord[] = [];
  if (customerId) {
    const [chargeList, openInvoices] = await Promise.all([
      deps.stripe.charges.list({ customer: customerId, limit: 100 }),
      deps.stripe.invoices.list({ customer: customerId, status: 'open', limit: 20 }),
    ]);
    for (const charge of chargeList.data) {
      const pi = idOf(charge.payment_intent);
      if (pi && charge.status === 'succeeded') charges.set(pi, charge);
    }
    unpaid.push(...openInvoices.data.map(unpaidInvoiceRecord));
  }
  const asked = new Map(
    await Promise.all(
      payments.filter((p) => p.refundedCents > 0 || charges.get(p.paymentIntentId)?.amount_refunded).map(async (p) => [p.paymentIntentId, (await deps.payments.chargedPayment(p.paymentIntentId))?.refundRequests ?? []] as const),
    ),
  );
  const records = [
    ...payments.map((p) => {
      const refunds = (asked.get(p.paymentIntentId) ?? []).map(({ at, by, bySub, amountCents, reason }) => ({ at, by, ...(bySub ? { bySub } : {}), amountCents, reason }));
      return { ...recordOf(p, charges.get(p.paymentIntentId)), ...(refunds.length ? { refunds } : {}) };
    }),
    ...unpaid,
  ].sort((a, b) => b.at.localeCompare(a.at));
  return AdminBillingResponse.parse({
    ...(customerId ? { customerId } : {}),
    ...(summaryOf(subscription) ? { subscription: summaryOf(subscription) } : {}),
    payments: records,
    spentRefundedCredits,
  });
}
