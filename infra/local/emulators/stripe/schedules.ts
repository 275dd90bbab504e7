// Subscription schedules in the Stripe emulator: the billing portal's downgrade at the period's
// end is a schedule of two phases, released when the plan changes otherwise, canceled with the
// subscription, completed at the period's end.
import type Stripe from 'stripe';
import { type Api, found } from './api';
import { addIntervals, type Interval } from './clock';
import { invalid, missing } from './form';
import * as o from './objects';
import type { Store, SubscriptionState } from './store';

export class Schedules {
  constructor(private readonly s: Store) {}

  /** A downgrade at the period's end, as the billing portal schedules it: a subscription schedule of two phases. */
  scheduleDowngrade(sub: Stripe.Subscription, next: Stripe.Price): void {
    const state = this.s.subState.get(sub.id)!;
    if (state.scheduled) this.releaseSchedule(sub, state, 'released');
    const item = sub.items.data[0];
    const clock = this.s.clockOfSubscription(sub);
    const nextEnd = addIntervals(item.current_period_end, next.recurring!.interval as Interval, next.recurring!.interval_count, 1);
    const schedule = o.subscriptionSchedule({
      id: o.newId('sub_sched'),
      subscription: sub,
      current: { price: item.price.id, start: item.current_period_start, end: item.current_period_end },
      next: { price: next.id, start: item.current_period_end, end: nextEnd },
      created: this.s.clocks.now(clock),
    });
    this.s.schedules.set(schedule.id, schedule);
    state.scheduled = { price: next.id, schedule: schedule.id };
    const before = structuredClone(sub);
    sub.schedule = schedule.id;
    this.s.emit('subscription_schedule.created', schedule, clock);
    this.s.emitUpdated('customer.subscription.updated', sub, before, clock);
  }

  releaseSchedule(sub: Stripe.Subscription, state: SubscriptionState, how: 'released' | 'canceled' | 'completed'): void {
    const schedule = this.s.schedules.get(state.scheduled!.schedule)!;
    const clock = this.s.clockOfSubscription(sub);
    const now = this.s.clocks.now(clock);
    state.scheduled = undefined;
    sub.schedule = null;
    schedule.current_phase = null;
    if (how === 'canceled') {
      schedule.status = 'canceled';
      schedule.canceled_at = now;
      this.s.emit('subscription_schedule.canceled', schedule, clock);
    } else {
      schedule.status = 'released';
      schedule.released_at = now;
      schedule.released_subscription = sub.id;
      this.s.emit('subscription_schedule.released', schedule, clock);
    }
  }

  releaseScheduleById(id: string): Stripe.SubscriptionSchedule {
    const schedule = this.s.schedules.get(id);
    if (!schedule) throw missing('subscription_schedule', id);
    if (schedule.status !== 'active') throw invalid(`You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`);
    const sub = this.s.subscriptions.get(schedule.subscription as string)!;
    const before = structuredClone(sub);
    this.releaseSchedule(sub, this.s.subState.get(sub.id)!, 'released');
    this.s.emitUpdated('customer.subscription.updated', sub, before, this.s.clockOfSubscription(sub));
    return schedule;
  }

  routes(api: Api): void {
    api.on('GET', '/v1/subscription_schedules/:id', (_r, [id]) => found(this.s.schedules.get(id), 'subscription_schedule', id));
    api.on('POST', '/v1/subscription_schedules/:id/release', (r, [id]) => {
      r.boolean('preserve_cancel_date');
      return this.releaseScheduleById(id);
    });
  }
}
