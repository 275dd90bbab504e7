// Erasure of a client's payments (docs/payments.md#erasure, decision 019): their Stripe
// subscriptions canceled at once and their Stripe customer deleted (with its saved cards), our
// payments kept for accounting without what could identify them, and the customer's mapping kept,
// marked erased, so that Stripe's later events about them are known, answered 200, recorded and
// alarmed, and applied to nothing.
import Stripe from 'stripe';
import { FAILURE_METRICS } from '../../events/metrics';
import { AppError } from '../shared/errors';
import { log } from '../shared/log';
import type { ErasedAccountEvent, PaymentsStore } from './store';

/** Left on a subscription the erasure cancels: its own deletion event is expected, so it is not alarmed. */
const ERASURE_CANCELLATION_COMMENT = "Canceled by the erasure of the client's data";

/** What the erasure of a client did at Stripe and in our payments. */
export interface PaymentsErased {
  subscriptionsCanceled: number;
  stripeCustomersDeleted: number;
  paymentsAnonymised: number;
}

export interface PaymentsErasureDeps {
  stripe: Pick<Stripe, 'customers' | 'subscriptions'>;
  store: Pick<
    PaymentsStore,
    'customerOf' | 'customerRecord' | 'markCustomerErased' | 'paymentsOf' | 'anonymisePayment' | 'subscriptionOf' | 'endSubscriptionMirror' | 'forgetCustomerOfAccount'
  >;
}

/** Stripe failed or could not be reached: the erasure stops, says so, and is run again later. */
export class StripeUnavailableForErasureError extends AppError {
  constructor(step: string, cause: InstanceType<typeof Stripe.errors.StripeError>) {
    // The error's type, status and code only: its message may quote the customer.
    const reason = `${cause.type}${cause.statusCode ? ` ${cause.statusCode}` : ''}${cause.code ? ` ${cause.code}` : ''}`;
    super(
      `Stripe failed while erasing the client's payments (${step}: ${reason}). Their subscription may still be live, so nothing else of this person was erased; try the erasure again in a few minutes.`,
      503,
    );
  }
}

const isMissing = (err: unknown) => err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing');

/** Runs one Stripe call; Stripe's failure becomes the erasure's 503 naming the step (after the client's own retries). */
async function atStripe<T>(step: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError) throw new StripeUnavailableForErasureError(step, err);
    throw err;
  }
}

/**
 * Erases the payments of a client's accounts and of the Stripe customers registered under their
 * address that are ours (so a client erased before this step existed is reached too). Each
 * customer is first marked erased (its events change nothing from then on), then its live
 * subscriptions are canceled at once (no proration, no final invoice: the period they paid for
 * simply ends early), then it is deleted at Stripe, which removes its cards. Then each account's
 * subscription mirror is ended, its payments anonymised, and the account's side of the mapping
 * deleted. Every step is idempotent: a run that failed part way (Stripe down) is run again and
 * goes on; what was done already counts 0.
 */
export async function erasePaymentsOf(deps: PaymentsErasureDeps, found: { accountIds: string[]; email: string }, at: Date): Promise<PaymentsErased> {
  const accountIds = new Set(found.accountIds);
  const customers = new Map<string, string>();
  for (const accountId of accountIds) {
    const customerId = await deps.store.customerOf(accountId);
    if (customerId) customers.set(customerId, accountId);
  }
  // Stripe keeps the address on the customer: our customers under it whose account is gone already.
  await atStripe('listing the customers of the address', async () => {
    for await (const customer of deps.stripe.customers.list({ email: found.email, limit: 100 })) {
      const ours = await deps.store.customerRecord(customer.id);
      if (!ours) continue;
      customers.set(customer.id, ours.accountId);
      accountIds.add(ours.accountId);
    }
  });

  let subscriptionsCanceled = 0;
  let stripeCustomersDeleted = 0;
  const canceled = new Map<string, string[]>();
  for (const [customerId, accountId] of customers) {
    await deps.store.markCustomerErased(customerId, accountId, at);
    const live = await atStripe('listing the subscriptions', async () => {
      const subs: Stripe.Subscription[] = [];
      // Without a status Stripe lists the subscriptions that have not ended.
      for await (const sub of deps.stripe.subscriptions.list({ customer: customerId, limit: 100 })) subs.push(sub);
      return subs;
    });
    for (const sub of live) {
      const done = await atStripe('canceling a subscription', async () => {
        try {
          await deps.stripe.subscriptions.cancel(sub.id, { prorate: false, invoice_now: false, cancellation_details: { comment: ERASURE_CANCELLATION_COMMENT } });
          return true;
        } catch (err) {
          // Canceled meanwhile (a retry after an answer was lost): what we wanted.
          if (isMissing(err) || (err instanceof Stripe.errors.StripeInvalidRequestError && (await deps.stripe.subscriptions.retrieve(sub.id)).status === 'canceled')) return false;
          throw err;
        }
      });
      if (done) subscriptionsCanceled += 1;
      canceled.set(accountId, [...(canceled.get(accountId) ?? []), sub.id]);
    }
    const deleted = await atStripe('deleting the customer', async () => {
      try {
        return (await deps.stripe.customers.del(customerId)).deleted === true;
      } catch (err) {
        // Deleted by an earlier run whose answer was lost.
        if (isMissing(err)) return false;
        throw err;
      }
    });
    if (deleted) stripeCustomersDeleted += 1;
  }

  let paymentsAnonymised = 0;
  for (const accountId of accountIds) {
    const mirror = await deps.store.subscriptionOf(accountId);
    if (mirror && mirror.state !== 'ended' && (canceled.get(accountId) ?? []).includes(mirror.subscriptionId)) {
      await deps.store.endSubscriptionMirror(accountId, mirror.subscriptionId);
    }
    for (const payment of await deps.store.paymentsOf(accountId)) {
      if (await deps.store.anonymisePayment(payment.paymentIntentId, at)) paymentsAnonymised += 1;
    }
    await deps.store.forgetCustomerOfAccount(accountId);
  }
  log.info('payments erased', { accounts: accountIds.size, customers: customers.size, subscriptionsCanceled, stripeCustomersDeleted, paymentsAnonymised });
  return { subscriptionsCanceled, stripeCustomersDeleted, paymentsAnonymised };
}

// ---- Events about an erased client ---------------------------------------------------------------

/** Where an event about an erased client is recorded, and which event it is when the caller says. */
interface ErasedEventRecorder {
  store: Pick<PaymentsStore, 'recordErasedAccountEvent'>;
  event?: { id: string; type?: string };
}

/** What the webhook's branches give to know and record an event about an erased client. */
export interface ErasedEventDeps extends ErasedEventRecorder {
  store: Pick<PaymentsStore, 'customerRecord' | 'recordErasedAccountEvent'>;
}

type About = Omit<ErasedAccountEvent, 'eventId' | 'eventType' | 'expected'> & { expected?: boolean };

/**
 * Records an event about an erased client that is applied to nothing, and counts it as
 * `StripeEventsOfErasedAccounts` (alarmed: money may have moved for a person we erased; look at
 * it in Stripe), unless it is the deletion of a subscription the erasure itself canceled.
 */
export async function noteErasedAccountEvent(deps: ErasedEventRecorder, about: About): Promise<void> {
  const record: ErasedAccountEvent = {
    ...about,
    expected: about.expected ?? false,
    ...(deps.event ? { eventId: deps.event.id, ...(deps.event.type ? { eventType: deps.event.type } : {}) } : {}),
  };
  await deps.store.recordErasedAccountEvent(record);
  const fields = { event: record.eventId, type: record.eventType, object: record.object, objectId: record.objectId, customerId: record.customerId, accountId: record.accountId };
  if (record.expected) log.info('a Stripe event about an erased client, expected after its erasure; nothing applied', fields);
  else log.metric(FAILURE_METRICS.erasedAccountEvent, { fields });
}

/**
 * True when the customer is an erased client's: the event is then recorded and counted
 * (noteErasedAccountEvent) and its caller applies nothing.
 */
export async function isErasedCustomerEvent(deps: ErasedEventDeps, customerId: string | undefined, about: Omit<About, 'customerId' | 'accountId'>): Promise<boolean> {
  if (!customerId) return false;
  const record = await deps.store.customerRecord(customerId);
  if (!record?.erased) return false;
  await noteErasedAccountEvent(deps, { ...about, customerId, accountId: record.accountId });
  return true;
}

/** Whether Stripe's subscription was canceled by an erasure (its deletion event is expected). */
export const canceledByErasure = (sub: Pick<Stripe.Subscription, 'status' | 'cancellation_details'>) =>
  sub.status === 'canceled' && sub.cancellation_details?.comment === ERASURE_CANCELLATION_COMMENT;
