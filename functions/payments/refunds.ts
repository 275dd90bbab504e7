// Refunds and disputes (docs/payments.md#refunds-and-disputes). The webhook route hands every
// `charge.refunded` and `charge.dispute.*` event here, with the dependencies `chargeEventDeps`
// builds. Stripe is the source of truth for money: each event is only a prompt to read the charge
// or dispute as it stands now, so events in any order, or repeated, end in the same state.
//
// A refund takes back the purchase's credits in proportion to what is refunded in total
// (rounded up: a refund never leaves a client a credit they did not pay for), less what earlier
// refunds asked back; a lost dispute takes back whatever of the purchase was not asked back yet.
// Only unspent credits of that purchase's lot can go (never below zero), those on the balance and
// those a running generation holds reserved (decision 049: released, they are dropped); credits
// of it that expired unspent are neither taken nor spent; the credits already spent are the
// shortfall, recorded on the payment, and the account is flagged for the console; the royalties
// those spent credits earned are taken back from the talent's next statement (the event
// `Payments.SpentCreditsRefunded`, docs/payouts.md "Money taken back").
// An open dispute takes nothing: the client may still win it, and a won dispute keeps its credits.
// The events of one payment are applied one at a time (the payment is held while one applies).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { PAYMENTS_SPENT_CREDITS_REFUNDED, type PaymentsSpentCreditsRefundedV1 } from '../../events/payment-events';
import type { PaymentRecord } from '../../events/payments';
import { formatUsd } from '../../events/plans';
import { creditLedger } from '../accounts';
import { publish } from '../shared/events';
import { log } from '../shared/log';
import { RaceLostError } from '../shared/retry';
import { noteErasedAccountEvent } from './erasure';
import { paymentsStore, type ChargedPayment, type PaymentsStore, type TakeBackRecord } from './store';

/** What the ledger's take-back answers that refunds use (the shortfall is spent credits only: never expired ones). */
interface TakeBackAnswer {
  takenBack: number;
  shortfall: number;
  /** Of `takenBack`, the credits claimed from running generations. */
  reserved?: number;
  /** Credits of the purchase that had expired unspent. */
  expired?: number;
}

export interface ChargeEventDeps {
  stripe: Stripe;
  payments: Pick<PaymentsStore, 'chargedPayment' | 'hold' | 'release' | 'recordRefunded' | 'recordDispute' | 'recordTakeBack'>;
  flags: Pick<PaymentsStore, 'flagAccount'>;
  /** Where a refund or dispute of an erased client's payment is recorded (it changes nothing). */
  erased: Pick<PaymentsStore, 'recordErasedAccountEvent'>;
  ledger: {
    takeBack(accountId: string, change: { key: string; source: string; credits: number; reason: string }): Promise<TakeBackAnswer>;
  };
  /** Puts `Payments.SpentCreditsRefunded` on the bus: the royalties wing takes back what the spent credits earned. */
  publish: (detailType: string, detail: PaymentsSpentCreditsRefundedV1) => Promise<void>;
  now: () => Date;
}

/** The dependencies of `applyChargeEvent` for a function bound to both tables (the webhook's). */
export function chargeEventDeps(doc: DynamoDBDocumentClient, config: { PAYMENTS_TABLE: string; ACCOUNTS_TABLE: string; EVENT_BUS_NAME: string }, stripe: Stripe): ChargeEventDeps {
  const store = paymentsStore(doc, config.PAYMENTS_TABLE);
  return {
    stripe,
    payments: store,
    flags: store,
    erased: store,
    ledger: creditLedger(doc, config.ACCOUNTS_TABLE),
    publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
    now: () => new Date(),
  };
}

/**
 * A refund or dispute of a payment not recorded yet (its own event is still on its way, often in
 * the same instant): a lost race, so the webhook tries again in a moment, and past its bounded
 * retries answers 500 and Stripe sends the event again.
 */
export class PaymentNotRecordedError extends RaceLostError {
  override name = 'PaymentNotRecordedError';
  constructor(readonly paymentIntentId: string) {
    super(`no payment is recorded for ${paymentIntentId} yet`);
  }
}

const checkCount = (name: string, n: number) => {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a whole number, 0 or more (got ${n})`);
};

/**
 * The credits a purchase of `credits` for `amountCents` loses when `refundedCents` of it are
 * refunded in total: in proportion, rounded up, never more than it bought.
 */
export function creditsOfRefund(credits: number, amountCents: number, refundedCents: number): number {
  checkCount('credits', credits);
  checkCount('amountCents', amountCents);
  checkCount('refundedCents', refundedCents);
  if (refundedCents === 0 || credits === 0) return 0;
  if (amountCents === 0 || refundedCents >= amountCents) return credits;
  // ceil(credits * refunded / amount) in integers.
  return Math.floor((credits * refundedCents + amountCents - 1) / amountCents);
}

/** What is still to ask back to reach `target` credits when `claimed` were asked back before (never negative). */
export function creditsStillDue(target: number, claimed: number): number {
  checkCount('target', target);
  checkCount('claimed', claimed);
  return Math.max(0, target - claimed);
}

/**
 * What the console calls a payment: a lost dispute is final, an open one shows until it is
 * decided; otherwise how much of it was refunded.
 */
export function paymentStatusOf(p: { amountCents: number; refundedCents: number; disputeStatus?: string }): PaymentRecord['status'] {
  if (p.disputeStatus === 'lost') return 'dispute_lost';
  if (p.disputeStatus && p.disputeStatus !== 'won' && p.disputeStatus !== 'warning_closed') return 'disputed';
  if (p.refundedCents > 0 && p.refundedCents >= p.amountCents) return 'refunded';
  return p.refundedCents > 0 ? 'partially_refunded' : 'paid';
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : v?.id);

/** Applies a refund or dispute event: takes back the purchase's unspent credits, once. */
export async function applyChargeEvent(deps: ChargeEventDeps, event: Stripe.Event): Promise<void> {
  const object = event.data.object as { id?: string; object?: string };
  if (event.type === 'charge.refunded' && object.object === 'charge' && object.id) return applyRefund(deps, object.id, event.id);
  if (event.type.startsWith('charge.dispute.') && object.object === 'dispute' && object.id) return applyDispute(deps, object.id, event.id);
  log.info('charge event ignored', { type: event.type });
}

/**
 * Another event of the same payment is being applied: a lost race, so the webhook tries again in a
 * moment, when it counts from what the other took back.
 */
export class PaymentBusyError extends RaceLostError {
  override name = 'PaymentBusyError';
  constructor(readonly paymentIntentId: string) {
    super(`another refund or dispute event of ${paymentIntentId} is being applied`);
  }
}

/** How long one event may hold a payment before another may take it over (a crashed holder). */
const HOLD_MS = 60_000;

/**
 * Runs `apply` with the payment as it stands, holding it so that two events of one charge never
 * count from the same earlier claim; PaymentNotRecordedError while its own event has not landed.
 */
async function withPayment(deps: ChargeEventDeps, paymentIntentId: string, holder: string, apply: (payment: ChargedPayment) => Promise<void>): Promise<void> {
  const recorded = await deps.payments.chargedPayment(paymentIntentId);
  if (!recorded) throw new PaymentNotRecordedError(paymentIntentId);
  // An erased client's payment: no account to take credits back from; recorded and alarmed.
  if (recorded.erasedAt) return noteErasedAccountEvent({ store: deps.erased, event: { id: holder } }, { object: 'payment', objectId: paymentIntentId, accountId: recorded.accountId });
  if (!(await deps.payments.hold(paymentIntentId, holder, new Date(Date.now() + HOLD_MS)))) throw new PaymentBusyError(paymentIntentId);
  try {
    // Read again once held: what earlier take-backs claimed is final now.
    const payment = await deps.payments.chargedPayment(paymentIntentId);
    if (!payment) throw new PaymentNotRecordedError(paymentIntentId);
    await apply(payment);
  } finally {
    await deps.payments.release(paymentIntentId, holder);
  }
}

async function applyRefund(deps: ChargeEventDeps, chargeId: string, eventId: string): Promise<void> {
  const paymentIntentId = idOf((await deps.stripe.charges.retrieve(chargeId)).payment_intent);
  if (!paymentIntentId) {
    log.warn('refunded charge without a payment intent ignored', { chargeId });
    return;
  }
  await withPayment(deps, paymentIntentId, eventId, async (payment) => {
    // Read once held: the refunded total now, whatever refund this event announced.
    const charge = await deps.stripe.charges.retrieve(chargeId);
    await deps.payments.recordRefunded(paymentIntentId, {
      refundedCents: charge.amount_refunded,
      chargeId: charge.id,
      status: paymentStatusOf({ amountCents: charge.amount, refundedCents: charge.amount_refunded, disputeStatus: payment.disputeStatus }),
    });
    const credits = creditsStillDue(creditsOfRefund(payment.credits, charge.amount, charge.amount_refunded), payment.creditsClaimed);
    if (credits === 0) return;
    // The key names the refunded total: every event that reads the same total asks back once.
    await takeBack(deps, payment, {
      key: `refund:${charge.id}:${charge.amount_refunded}`,
      credits,
      reason: `Refund of ${formatUsd(charge.amount_refunded)} of ${formatUsd(charge.amount)}: ${payment.description}`,
    });
  });
}

async function applyDispute(deps: ChargeEventDeps, disputeId: string, eventId: string): Promise<void> {
  const opened = await deps.stripe.disputes.retrieve(disputeId);
  let paymentIntentId = idOf(opened.payment_intent);
  if (!paymentIntentId) {
    const chargeId = idOf(opened.charge);
    paymentIntentId = chargeId ? idOf((await deps.stripe.charges.retrieve(chargeId)).payment_intent) : undefined;
  }
  if (!paymentIntentId) {
    log.warn('dispute without a payment intent ignored', { disputeId });
    return;
  }
  await withPayment(deps, paymentIntentId, eventId, async (payment) => {
    const dispute = await deps.stripe.disputes.retrieve(disputeId);
    await deps.payments.recordDispute(paymentIntentId, {
      disputeId: dispute.id,
      disputeStatus: dispute.status,
      status: paymentStatusOf({ amountCents: payment.amountCents, refundedCents: payment.refundedCents, disputeStatus: dispute.status }),
    });
    if (dispute.status !== 'lost') return;
    const credits = creditsStillDue(payment.credits, payment.creditsClaimed);
    if (credits === 0) return;
    await takeBack(deps, payment, { key: `dispute:${dispute.id}`, credits, reason: `Dispute lost: ${payment.description}` });
  });
}

/** Why a royalty was taken back, as the talent's statement says it. */
const REFUNDED_REASON = "The client's payment was refunded";
const DISPUTE_LOST_REASON = "The client's payment was taken back in a dispute";

async function takeBack(deps: ChargeEventDeps, payment: ChargedPayment, change: { key: string; credits: number; reason: string }): Promise<void> {
  const source = payment.source || payment.grantKey;
  const answer = await deps.ledger.takeBack(payment.accountId, { ...change, reason: change.reason.slice(0, 200), source });
  if (answer.shortfall > 0) {
    // Before the take-back is recorded: a failure here answers 500, and Stripe's next delivery
    // replays the ledger's answer (same key) and publishes again; the consumer applies a key once.
    await deps.publish(PAYMENTS_SPENT_CREDITS_REFUNDED, {
      version: 1,
      accountId: payment.accountId,
      source,
      credits: answer.shortfall,
      key: change.key,
      // For the talent's statement: what happened, never the client or what they bought.
      reason: change.key.startsWith('dispute:') ? DISPUTE_LOST_REASON : REFUNDED_REASON,
      at: deps.now().toISOString(),
    });
  }
  const record: TakeBackRecord = { key: change.key, claimed: change.credits, takenBack: answer.takenBack, shortfall: answer.shortfall };
  await deps.payments.recordTakeBack(payment.paymentIntentId, record);
  if (record.shortfall > 0) {
    // Once per take-back (its ledger key): a second partial refund's shortfall adds to the flag.
    await deps.flags.flagAccount(payment.accountId, { source: change.key, spentCredits: record.shortfall, reason: change.reason.slice(0, 200) });
    log.warn('refunded credits were already spent', { accountId: payment.accountId, paymentIntentId: payment.paymentIntentId, shortfall: record.shortfall });
  }
  log.info('credits taken back', {
    accountId: payment.accountId,
    paymentIntentId: payment.paymentIntentId,
    takenBack: record.takenBack,
    reserved: answer.reserved ?? 0,
    expired: answer.expired ?? 0,
    shortfall: record.shortfall,
  });
}
