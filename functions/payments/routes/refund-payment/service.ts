import Stripe from 'stripe';
import type { AdminRefundRequest, AdminRefundResponse } from '../../../../events/payments';
import { formatUsd } from '../../../../events/plans';
import type { AdminActor } from '../../../shared/auth';
import { ConflictError, NotFoundError, ValidationError } from '../../../shared/errors';
import type { PaymentsStore } from '../../store';

export const PAYMENT_NOT_FOUND_MESSAGE = 'Payment not found';
export const ALREADY_REFUNDED_MESSAGE = 'This payment is already fully refunded.';
export const DISPUTED_MESSAGE = 'This payment is disputed: its money goes back through the dispute, not a refund.';
const KEY_REUSED_MESSAGE = 'This Idempotency-Key was used for a different refund. Open the refund dialog again.';
export const amountTooLargeMessage = (remainingCents: number) => `The refund can be at most ${formatUsd(remainingCents)}, what is left of this payment.`;
/** What the console says after a refund: the credits follow Stripe's confirmation, not the click. */
const refundedMessage = (amountCents: number) =>
  `Refunded ${formatUsd(amountCents)} through Stripe. The credits it bought are taken back when Stripe confirms the refund.`;

export interface RefundDeps {
  payments: Pick<PaymentsStore, 'chargedPayment' | 'recordRefundRequest'>;
  stripe: Stripe;
  now?: () => Date;
}

/**
 * Refunds (part of) a payment through Stripe, as an admin asked. Nothing changes here but Stripe's
 * refund and the record of who asked: the credits are taken back when the verified
 * `charge.refunded` event lands (refunds.ts). One Stripe idempotency key per attempt: the
 * console's `Idempotency-Key`, or else the payment, what was refunded before and the amount, so a
 * repeated click refunds once.
 */
export async function refundPayment(
  deps: RefundDeps,
  paymentIntentId: string,
  request: AdminRefundRequest,
  by: AdminActor,
  idempotencyKey: string | undefined,
): Promise<AdminRefundResponse> {
  const payment = await deps.payments.chargedPayment(paymentIntentId);
  if (!payment) throw new NotFoundError(PAYMENT_NOT_FOUND_MESSAGE);
  const charges = await deps.stripe.charges.list({ payment_intent: paymentIntentId, limit: 10 });
  const charge = charges.data.find((c) => c.status === 'succeeded');
  if (!charge) throw new ConflictError('Stripe has no successful charge for this payment: there is nothing to refund.');
  if (charge.disputed) throw new ConflictError(DISPUTED_MESSAGE);
  const remaining = charge.amount - charge.amount_refunded;
  if (remaining <= 0) throw new ConflictError(ALREADY_REFUNDED_MESSAGE);
  const amount = request.amountCents ?? remaining;
  if (amount > remaining) throw new ValidationError(amountTooLargeMessage(remaining), { amountCents: amountTooLargeMessage(remaining) });

  const key = idempotencyKey ? `console-refund:${paymentIntentId}:${idempotencyKey}` : `console-refund:${paymentIntentId}:${charge.amount_refunded}:${amount}`;
  let refund: Stripe.Refund;
  try {
    refund = await deps.stripe.refunds.create(
      { payment_intent: paymentIntentId, amount, reason: 'requested_by_customer', metadata: { reason: request.reason, by: by.email } },
      { idempotencyKey: key },
    );
  } catch (err) {
    throw refusal(err, remaining) ?? err;
  }
  await deps.payments.recordRefundRequest(paymentIntentId, {
    at: (deps.now ?? (() => new Date()))().toISOString(),
    by: by.email,
    bySub: by.sub,
    amountCents: refund.amount,
    reason: request.reason,
    refundId: refund.id,
  });
  return {
    refundId: refund.id,
    amountCents: refund.amount,
    remainingCents: Math.max(0, remaining - refund.amount),
    status: refund.status ?? 'pending',
    message: refundedMessage(refund.amount),
  };
}

/** Stripe's refusals that are the admin's to fix, as our errors; undefined for anything else. */
function refusal(err: unknown, remaining: number): Error | undefined {
  if (err instanceof Stripe.errors.StripeIdempotencyError) return new ConflictError(KEY_REUSED_MESSAGE);
  if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) return undefined;
  if (err.code === 'charge_already_refunded') return new ConflictError(ALREADY_REFUNDED_MESSAGE);
  if (err.code === 'charge_disputed') return new ConflictError(DISPUTED_MESSAGE);
  if (err.code === 'amount_too_large') return new ValidationError(amountTooLargeMessage(remaining), { amountCents: amountTooLargeMessage(remaining) });
  return undefined;
}
