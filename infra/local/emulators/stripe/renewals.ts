// Due work in the Stripe emulator, on the emulator's own clock or a test clock: renewals at the
// period's end (with a scheduled downgrade and the prorations kept for them), payment retries on
// Stripe's schedule, cancellations at the period's end, each carried out at its own time.
import type Stripe from 'stripe';
import { addIntervals, type Interval } from './clock';
import type { Invoices } from './invoices';
import * as o from './objects';
import type { Schedules } from './schedules';
import type { Store } from './store';
import type { Subscriptions } from './subscriptions';

export class Renewals {
  constructor(
    private readonly s: Store,
    private readonly subscriptions: Subscriptions,
    private readonly invoices: Invoices,
    private readonly schedules: Schedules,
  ) {}

  /** Carries out everything due on a clock up to `until`, in time order, each at its own time. */
  runDue(clock: string | null, until: number): void {
    for (let guard = 0; guard < 10_000; guard++) {
      const next = this.nextDue(clock);
      if (!next || next.at > until) break;
      this.s.clocks.pin(clock, next.at);
      try {
        next.run();
      } finally {
        this.s.clocks.unpin(clock);
      }
    }
    this.s.clocks.set(clock, until);
  }

  private nextDue(clock: string | null): { at: number; run: () => void } | undefined {
    let best: { at: number; run: () => void } | undefined;
    const consider = (at: number, run: () => void) => {
      if (!best || at < best.at) best = { at, run };
    };
    for (const sub of this.s.subscriptions.values()) {
      const state = this.s.subState.get(sub.id)!;
      if (state.clock !== clock || !['active', 'past_due', 'trialing'].includes(sub.status)) continue;
      consider(sub.items.data[0].current_period_end, () => this.periodEnd(sub));
    }
    for (const inv of this.s.invoices.values()) {
      if (inv.status !== 'open' || inv.next_payment_attempt === null) continue;
      const sub = this.s.subscriptionOf(inv);
      if (this.s.clockOfSubscription(sub) !== clock || sub.status === 'canceled') continue;
      consider(inv.next_payment_attempt, () => {
        inv.next_payment_attempt = null;
        this.invoices.payInvoice(inv, true);
      });
    }
    return best;
  }

  private periodEnd(sub: Stripe.Subscription): void {
    const clock = this.s.clockOfSubscription(sub);
    const state = this.s.subState.get(sub.id)!;
    const item = sub.items.data[0];
    if (sub.cancel_at !== null && sub.cancel_at <= item.current_period_end) {
      this.subscriptions.cancelNow(sub, 'cancellation_requested');
      return;
    }
    const before = structuredClone(sub);
    const previousStart = item.current_period_start;
    const previousEnd = item.current_period_end;
    if (state.scheduled) {
      const next = this.s.price(state.scheduled.price);
      this.schedules.releaseSchedule(sub, state, 'completed');
      item.price = next;
      item.plan = o.planOf(next);
    }
    state.periods += 1;
    const pr = item.price;
    item.current_period_start = previousEnd;
    item.current_period_end = addIntervals(sub.billing_cycle_anchor, pr.recurring!.interval as Interval, pr.recurring!.interval_count, state.periods + 1);
    this.s.emitUpdated('customer.subscription.updated', sub, before, clock);
    const lines = [...state.pendingLines, this.invoices.periodLine(item)];
    state.pendingLines = [];
    // A cycle invoice's own period is the one that just ended (its lines carry the new one), as on Stripe.
    this.invoices.bill(sub, 'subscription_cycle', lines, { start: previousStart, end: previousEnd }, true);
  }
}
