// Refunds and disputes take back the credits a purchase bought (docs/payments.md#refunds-and-disputes):
// in proportion to the refunded total, rounded up, less what was asked back before; a lost
// dispute asks back the rest. The arithmetic, then the event handling with an in-memory store.
import type { PaymentsSpentCreditsRefundedV1 } from '../../../events/payment-events';
import fc from 'fast-check';
import type Stripe from 'stripe';
import type { ChargedPayment, TakeBackRecord } from '../../../functions/payments/store';
import { applyChargeEvent, creditsOfRefund, creditsStillDue, PaymentBusyError, paymentStatusOf, PaymentNotRecordedError, type ChargeEventDeps } from '../../../functions/payments/refunds';

describe('creditsOfRefund', () => {
  it('takes back in proportion to the refunded total, rounded up', () => {
    expect(creditsOfRefund(80, 3500, 0)).toBe(0);
    expect(creditsOfRefund(80, 3500, 1750)).toBe(40);
    // 80 * 1000 / 3500 = 22.86: a partial credit counts as a whole one.
    expect(creditsOfRefund(80, 3500, 1000)).toBe(23);
    expect(creditsOfRefund(80, 3500, 1)).toBe(1);
    expect(creditsOfRefund(80, 3500, 3500)).toBe(80);
    expect(creditsOfRefund(100, 4000, 3999)).toBe(100);
  });

  it('never asks back more than the purchase bought, nor anything of a purchase of no credits', () => {
    expect(creditsOfRefund(80, 3500, 9999)).toBe(80);
    expect(creditsOfRefund(0, 3500, 3500)).toBe(0);
    expect(creditsOfRefund(10, 0, 0)).toBe(0);
  });

  it('refuses amounts that are not whole numbers, naming them', () => {
    expect(() => creditsOfRefund(80, 3500, 10.5)).toThrow('refundedCents must be a whole number, 0 or more (got 10.5)');
    expect(() => creditsOfRefund(-1, 3500, 10)).toThrow('credits must be a whole number');
    expect(() => creditsOfRefund(80, Number.NaN, 10)).toThrow('amountCents must be a whole number');
  });

  it('partial refunds in any steps ask back exactly what one refund of their total would', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9000 }), fc.integer({ min: 1, max: 300_000 }), fc.array(fc.integer({ min: 1, max: 300_000 }), { maxLength: 6 }), (credits, amount, steps) => {
        let refunded = 0;
        let claimed = 0;
        for (const step of steps) {
          refunded = Math.min(amount, refunded + step);
          const due = creditsStillDue(creditsOfRefund(credits, amount, refunded), claimed);
          expect(due).toBeGreaterThanOrEqual(0);
          claimed += due;
        }
        expect(claimed).toBe(creditsOfRefund(credits, amount, refunded));
        expect(claimed).toBeLessThanOrEqual(credits);
        // A refund of everything asks back every credit.
        expect(creditsStillDue(creditsOfRefund(credits, amount, amount), claimed) + claimed).toBe(credits);
      }),
    );
  });
});

describe('creditsStillDue', () => {
  it('is what the target adds to what was asked back, never negative', () => {
    expect(creditsStillDue(40, 0)).toBe(40);
    expect(creditsStillDue(40, 23)).toBe(17);
    expect(creditsStillDue(40, 80)).toBe(0);
  });
});

describe('paymentStatusOf', () => {
  it('names refunds, open and lost disputes', () => {
    expect(paymentStatusOf({ amountCents: 3500, refundedCents: 0 })).toBe('paid');
    expect(paymentStatusOf({ amountCents: 3500, refundedCents: 100 })).toBe('partially_refunded');
    expect(paymentStatusOf({ amountCents: 3500, refundedCents: 3500 })).toBe('refunded');
    expect(paymentStatusOf({ amountCents: 3500, refundedCents: 0, disputeStatus: 'needs_response' })).toBe('disputed');
    expect(paymentStatusOf({ amountCents: 3500, refundedCents: 0, disputeStatus: 'lost' })).toBe('dispute_lost');
    expect(paymentStatusOf({ amountCents: 3500, refundedCents: 100, disputeStatus: 'won' })).toBe('partially_refunded');
  });
});

// ---- Events, with an in-memory payments store, ledger and Stripe ----------------------------------

interface World {
  deps: ChargeEventDeps;
  payment: ChargedPayment;
  charge: { id: string; amount: number; amount_refunded: number; payment_intent: string };
  dispute: { id: string; status: string; payment_intent: string; charge: string };
  /** Unspent credits of the purchase's lot. */
  unspent: { n: number };
  takeBacks: { key: string; credits: number; source: string }[];
  flags: { source: string; spentCredits: number }[];
  /** Events put on the bus. */
  published: { type: string; detail: PaymentsSpentCreditsRefundedV1 }[];
  /** Makes the next publish fail (the bus refused it). */
  failPublish: { next: boolean };
  /** Who holds the payment (another event while it applies). */
  held: { by?: string };
}

function world(opts: { credits: number; amountCents: number; unspent: number }): World {
  const payment: ChargedPayment = {
    paymentIntentId: 'pi_1',
    accountId: 'acct-1',
    kind: 'credits',
    description: '100 extra credits',
    amountCents: opts.amountCents,
    refundedCents: 0,
    status: 'paid',
    credits: opts.credits,
    creditsTakenBack: 0,
    creditsShortfall: 0,
    creditsClaimed: 0,
    at: '2026-11-02T10:00:00.000Z',
    source: 'checkout:cs_1',
    grantKey: 'checkout:cs_1',
    refundRequests: [],
  };
  const charge = { id: 'ch_1', amount: opts.amountCents, amount_refunded: 0, payment_intent: 'pi_1' };
  const dispute = { id: 'du_1', status: 'needs_response', payment_intent: 'pi_1', charge: 'ch_1' };
  const unspent = { n: opts.unspent };
  const seenTakeBacks = new Map<string, { takenBack: number; shortfall: number }>();
  const recorded = new Set<string>();
  const w: World = {
    payment,
    charge,
    dispute,
    unspent,
    takeBacks: [],
    flags: [],
    published: [],
    failPublish: { next: false },
    held: {},
    deps: {
      stripe: {
        charges: { retrieve: async (id: string) => (id === charge.id ? { ...charge } : Promise.reject(new Error(`no charge ${id}`))) },
        disputes: { retrieve: async (id: string) => (id === dispute.id ? { ...dispute } : Promise.reject(new Error(`no dispute ${id}`))) },
      } as unknown as Stripe,
      payments: {
        chargedPayment: async (id) => (id === payment.paymentIntentId ? { ...payment } : undefined),
        hold: async (_id, holder) => {
          if (w.held.by && w.held.by !== holder) return false;
          w.held.by = holder;
          return true;
        },
        release: async (_id, holder) => {
          if (w.held.by === holder) w.held.by = undefined;
        },
        recordRefunded: async (_id, r) => {
          if (r.refundedCents <= payment.refundedCents) return false;
          Object.assign(payment, { refundedCents: r.refundedCents, chargeId: r.chargeId, status: r.status });
          return true;
        },
        recordDispute: async (_id, d) => {
          if (payment.disputeStatus === 'lost') return false;
          Object.assign(payment, { disputeId: d.disputeId, disputeStatus: d.disputeStatus, status: d.status });
          return true;
        },
        recordTakeBack: async (_id, r: TakeBackRecord) => {
          if (recorded.has(r.key)) return false;
          recorded.add(r.key);
          payment.creditsClaimed += r.claimed;
          payment.creditsTakenBack += r.takenBack;
          payment.creditsShortfall += r.shortfall;
          return true;
        },
      },
      flags: {
        flagAccount: async (_accountId, flag) => {
          if (!w.flags.some((f) => f.source === flag.source)) w.flags.push({ source: flag.source, spentCredits: flag.spentCredits });
        },
      },
      erased: { recordErasedAccountEvent: async () => undefined },
      ledger: {
        takeBack: async (_accountId, change) => {
          const seen = seenTakeBacks.get(change.key);
          if (seen) return seen;
          const takenBack = Math.min(change.credits, unspent.n);
          unspent.n -= takenBack;
          const answer = { takenBack, shortfall: change.credits - takenBack };
          seenTakeBacks.set(change.key, answer);
          w.takeBacks.push({ key: change.key, credits: change.credits, source: change.source });
          return answer;
        },
      },
      publish: async (type, detail) => {
        if (w.failPublish.next) {
          w.failPublish.next = false;
          throw new Error('EventBridge refused Payments.SpentCreditsRefunded');
        }
        w.published.push({ type, detail });
      },
      now: () => new Date('2026-11-20T08:00:00.000Z'),
    },
  };
  return w;
}

const chargeEvent = (id: string) => ({ id: 'evt_r', type: 'charge.refunded', data: { object: { id, object: 'charge' } } }) as unknown as Stripe.Event;
const disputeEvent = (type: string, id = 'du_1') => ({ id: `evt_${type}`, type, data: { object: { id, object: 'dispute' } } }) as unknown as Stripe.Event;

describe('applyChargeEvent', () => {
  it('a partial refund takes back its share of the purchase from its own lot, once however often the event comes', async () => {
    const w = world({ credits: 100, amountCents: 4000, unspent: 100 });
    w.charge.amount_refunded = 1000;
    await applyChargeEvent(w.deps, chargeEvent('ch_1'));
    await applyChargeEvent(w.deps, chargeEvent('ch_1'));
    expect(w.takeBacks).toEqual([{ key: 'refund:ch_1:1000', credits: 25, source: 'checkout:cs_1' }]);
    expect(w.payment).toMatchObject({ refundedCents: 1000, status: 'partially_refunded', creditsTakenBack: 25, creditsShortfall: 0, creditsClaimed: 25 });
    expect(w.unspent.n).toBe(75);
    expect(w.flags).toEqual([]);
  });

  it('a second refund asks back only what the larger total adds; an older event read late changes nothing', async () => {
    const w = world({ credits: 100, amountCents: 4000, unspent: 100 });
    w.charge.amount_refunded = 1000;
    await applyChargeEvent(w.deps, chargeEvent('ch_1'));
    w.charge.amount_refunded = 4000;
    await applyChargeEvent(w.deps, chargeEvent('ch_1'));
    await applyChargeEvent(w.deps, chargeEvent('ch_1'));
    expect(w.takeBacks.map((t) => [t.key, t.credits])).toEqual([
      ['refund:ch_1:1000', 25],
      ['refund:ch_1:4000', 75],
    ]);
    expect(w.payment).toMatchObject({ refundedCents: 4000, status: 'refunded', creditsTakenBack: 100, creditsClaimed: 100 });
  });

  it('credits already spent are the shortfall: recorded on the payment and flagging the account, never below zero', async () => {
    const w = world({ credits: 100, amountCents: 4000, unspent: 30 });
    w.charge.amount_refunded = 4000;
    await applyChargeEvent(w.deps, chargeEvent('ch_1'));
    expect(w.payment).toMatchObject({ creditsTakenBack: 30, creditsShortfall: 70 });
    expect(w.unspent.n).toBe(0);
    expect(w.flags).toEqual([{ source: 'refund:ch_1:4000', spentCredits: 70 }]);
    // The royalties of the 70 spent credits are taken back from the talent (docs/payouts.md).
    expect(w.published).toEqual([
      {
        type: 'Payments.SpentCreditsRefunded',
        detail: { version: 1, accountId: 'acct-1', source: 'checkout:cs_1', credits: 70, key: 'refund:ch_1:4000', reason: "The client's payment was refunded", at: '2026-11-20T08:00:00.000Z' },
      },
    ]);
  });

  it('a refund of unspent credits takes no royalty back; a bus that refuses the event fails the delivery, and the next one publishes it', async () => {
    const none = world({ credits: 100, amountCents: 4000, unspent: 100 });
    none.charge.amount_refunded = 4000;
    await applyChargeEvent(none.deps, chargeEvent('ch_1'));
    expect(none.published).toEqual([]);

    const w = world({ credits: 100, amountCents: 4000, unspent: 30 });
    w.charge.amount_refunded = 4000;
    w.failPublish.next = true;
    await expect(applyChargeEvent(w.deps, chargeEvent('ch_1'))).rejects.toThrow('EventBridge refused');
    // Nothing recorded on the payment yet: Stripe's next delivery does it all, the ledger's answer replayed.
    expect(w.payment).toMatchObject({ creditsClaimed: 0, creditsShortfall: 0 });
    await applyChargeEvent(w.deps, chargeEvent('ch_1'));
    expect(w.published.map((p) => [p.detail.key, p.detail.credits])).toEqual([['refund:ch_1:4000', 70]]);
    expect(w.payment).toMatchObject({ creditsTakenBack: 30, creditsShortfall: 70 });
    expect(w.unspent.n).toBe(0);
  });

  it('an open dispute takes nothing; a lost one takes what refunds did not, once', async () => {
    const w = world({ credits: 100, amountCents: 4000, unspent: 100 });
    w.charge.amount_refunded = 1000;
    await applyChargeEvent(w.deps, chargeEvent('ch_1'));
    await applyChargeEvent(w.deps, disputeEvent('charge.dispute.created'));
    await applyChargeEvent(w.deps, disputeEvent('charge.dispute.funds_withdrawn'));
    expect(w.payment.status).toBe('disputed');
    expect(w.takeBacks).toHaveLength(1);
    w.dispute.status = 'lost';
    await applyChargeEvent(w.deps, disputeEvent('charge.dispute.closed'));
    // The withdrawal event, delivered late, reads the dispute as lost too: the same key, nothing more.
    await applyChargeEvent(w.deps, disputeEvent('charge.dispute.funds_withdrawn'));
    expect(w.takeBacks.map((t) => [t.key, t.credits])).toEqual([
      ['refund:ch_1:1000', 25],
      ['dispute:du_1', 75],
    ]);
    expect(w.payment).toMatchObject({ status: 'dispute_lost', creditsTakenBack: 100, creditsClaimed: 100 });
    expect(w.unspent.n).toBe(0);
  });

  it('a won dispute keeps the credits', async () => {
    const w = world({ credits: 100, amountCents: 4000, unspent: 100 });
    w.dispute.status = 'won';
    await applyChargeEvent(w.deps, disputeEvent('charge.dispute.closed'));
    expect(w.takeBacks).toEqual([]);
    expect(w.payment.status).toBe('paid');
  });

  it('an event of a payment another event is applying fails, so Stripe sends it again; it then counts from what the other took', async () => {
    const w = world({ credits: 100, amountCents: 4000, unspent: 100 });
    w.charge.amount_refunded = 1000;
    w.held.by = 'evt_other';
    await expect(applyChargeEvent(w.deps, chargeEvent('ch_1'))).rejects.toBeInstanceOf(PaymentBusyError);
    expect(w.takeBacks).toEqual([]);
    w.held.by = undefined;
    await applyChargeEvent(w.deps, chargeEvent('ch_1'));
    expect(w.takeBacks.map((t) => t.credits)).toEqual([25]);
    expect(w.held.by).toBeUndefined();
  });

  it('a refund of a payment not recorded yet fails, so Stripe sends the event again', async () => {
    const w = world({ credits: 100, amountCents: 4000, unspent: 100 });
    w.charge.payment_intent = 'pi_other';
    w.charge.amount_refunded = 4000;
    await expect(applyChargeEvent(w.deps, chargeEvent('ch_1'))).rejects.toBeInstanceOf(PaymentNotRecordedError);
    expect(w.takeBacks).toEqual([]);
  });
});
