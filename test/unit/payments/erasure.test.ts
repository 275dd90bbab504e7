// The payments part of erasure (functions/payments/erasure.ts) with fakes where Stripe and the
// table would be: the order of its steps, a repeated run, Stripe failing, and how an event about
// an erased client is recorded and counted.
import Stripe from 'stripe';
import { erasePaymentsOf, isErasedCustomerEvent, type PaymentsErasureDeps } from '../../../functions/payments/erasure';
import type { ErasedAccountEvent } from '../../../functions/payments/store';
import { metricsWritten } from '../../support/metrics';

const AT = new Date('2030-02-01T00:00:00Z');

function fakes(options: { customerGone?: boolean; stripeDown?: boolean } = {}) {
  const calls: string[] = [];
  const stripe = {
    customers: {
      list: () => (async function* () {})(),
      del: async (id: string) => {
        calls.push(`delete ${id}`);
        if (options.customerGone) throw new Stripe.errors.StripeInvalidRequestError({ message: 'No such customer', statusCode: 404, code: 'resource_missing' } as never);
        return { id, deleted: true };
      },
    },
    subscriptions: {
      list: () =>
        (async function* () {
          if (options.stripeDown) throw new Stripe.errors.StripeAPIError({ message: 'down', statusCode: 500 } as never);
          if (!options.customerGone) yield { id: 'sub_1', status: 'active' };
        })(),
      cancel: async (id: string, params: { cancellation_details?: { comment?: string } }) => {
        calls.push(`cancel ${id}: ${params.cancellation_details?.comment}`);
        return { id, status: 'canceled' };
      },
      retrieve: async (id: string) => ({ id, status: 'canceled' }),
    },
  } as unknown as PaymentsErasureDeps['stripe'];
  const store: PaymentsErasureDeps['store'] = {
    customerOf: async () => 'cus_1',
    customerRecord: async () => ({ accountId: 'acc_1', erased: false }),
    markCustomerErased: async (id) => void calls.push(`mark ${id}`),
    subscriptionOf: async () => ({ subscriptionId: 'sub_1', state: 'active' }) as never,
    endSubscriptionMirror: async (_a, sub) => void calls.push(`end mirror ${sub}`),
    paymentsOf: async () => [{ paymentIntentId: 'pi_1' }, { paymentIntentId: 'pi_2' }] as never,
    anonymisePayment: async (id) => (calls.push(`anonymise ${id}`), !options.customerGone),
    forgetCustomerOfAccount: async (a) => void calls.push(`forget ${a}`),
  };
  return { deps: { stripe, store }, calls };
}

describe('erasePaymentsOf', () => {
  it('marks the customer erased before Stripe is called, cancels, deletes, then ends the mirror and anonymises', async () => {
    const { deps, calls } = fakes();
    expect(await erasePaymentsOf(deps, { accountIds: ['acc_1'], email: 'ada@example.com' }, AT)).toEqual({ subscriptionsCanceled: 1, stripeCustomersDeleted: 1, paymentsAnonymised: 2 });
    expect(calls).toEqual([
      'mark cus_1',
      "cancel sub_1: Canceled by the erasure of the client's data",
      'delete cus_1',
      'end mirror sub_1',
      'anonymise pi_1',
      'anonymise pi_2',
      'forget acc_1',
    ]);
  });

  it('counts nothing again on a repeated run (the customer already gone at Stripe)', async () => {
    const { deps } = fakes({ customerGone: true });
    expect(await erasePaymentsOf(deps, { accountIds: ['acc_1'], email: 'ada@example.com' }, AT)).toEqual({ subscriptionsCanceled: 0, stripeCustomersDeleted: 0, paymentsAnonymised: 0 });
  });

  it('answers 503 naming the step when Stripe fails, before deleting or anonymising anything', async () => {
    const { deps, calls } = fakes({ stripeDown: true });
    await expect(erasePaymentsOf(deps, { accountIds: ['acc_1'], email: 'ada@example.com' }, AT)).rejects.toMatchObject({
      status: 503,
      message: expect.stringContaining("Stripe failed while erasing the client's payments (listing the subscriptions: StripeAPIError 500)"),
    });
    expect(calls).toEqual(['mark cus_1']);
  });
});

describe('events about an erased client', () => {
  const recorder = (erased: boolean) => {
    const recorded: ErasedAccountEvent[] = [];
    return { recorded, deps: { store: { customerRecord: async () => ({ accountId: 'acc_1', erased }), recordErasedAccountEvent: async (e: ErasedAccountEvent) => void recorded.push(e) }, event: { id: 'evt_1', type: 'invoice.paid' } } };
  };

  it('records and counts StripeEventsOfErasedAccounts; the erasure\'s own cancellation is recorded without the count', async () => {
    const late = recorder(true);
    const metrics = await metricsWritten(async () => expect(await isErasedCustomerEvent(late.deps, 'cus_1', { object: 'invoice', objectId: 'in_1' })).toBe(true));
    expect(metrics.map((m) => [m.name, m.value, m.dimensions])).toEqual([['StripeEventsOfErasedAccounts', 1, [[]]]]);
    expect(late.recorded).toEqual([{ object: 'invoice', objectId: 'in_1', customerId: 'cus_1', accountId: 'acc_1', expected: false, eventId: 'evt_1', eventType: 'invoice.paid' }]);

    const own = recorder(true);
    expect(await metricsWritten(() => isErasedCustomerEvent(own.deps, 'cus_1', { object: 'subscription', objectId: 'sub_1', expected: true }))).toEqual([]);
    expect(own.recorded).toMatchObject([{ expected: true }]);
  });

  it('leaves a customer that was not erased to the caller, recording nothing', async () => {
    const live = recorder(false);
    expect(await metricsWritten(async () => expect(await isErasedCustomerEvent(live.deps, 'cus_1', { object: 'invoice', objectId: 'in_1' })).toBe(false))).toEqual([]);
    expect(live.recorded).toEqual([]);
  });
});
