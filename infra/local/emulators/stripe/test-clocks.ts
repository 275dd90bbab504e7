// Test clocks in the Stripe emulator: a customer made on one, and everything of theirs, follows
// its frozen time; advancing it carries out what fell due, as Stripe does.
import type Stripe from 'stripe';
import { type Api, newest, page } from './api';
import { addIntervals, type Interval } from './clock';
import { invalid, missing, type Reader } from './form';
import * as o from './objects';
import type { Renewals } from './renewals';
import type { Store } from './store';

export class TestClocks {
  constructor(
    private readonly s: Store,
    private readonly renewals: Renewals,
  ) {}

  createTestClock(r: Reader): Stripe.TestHelpers.TestClock {
    const frozenTime = r.integer('frozen_time', { required: true, min: 0 })!;
    const name = r.string('name', { max: 300 }) ?? null;
    r.done();
    const clock = o.testClock({ id: o.newId('clock'), frozenTime, name, created: Math.floor(Date.now() / 1000) });
    this.s.testClocks.set(clock.id, clock);
    this.s.clocks.addTestClock(clock.id, frozenTime);
    this.s.emit('test_helpers.test_clock.created', clock, clock.id);
    return clock;
  }

  testClock(id: string): Stripe.TestHelpers.TestClock {
    const c = this.s.testClocks.get(id);
    if (!c) throw missing('test_helpers.test_clock', id, 'test_clock');
    return c;
  }

  /**
   * `POST /v1/test_helpers/test_clocks/:id/advance`: answers `advancing` at once, then carries
   * out what fell due (renewals, retries, cancellations) and turns `ready`, as Stripe does.
   */
  advanceTestClock(id: string, r: Reader): Stripe.TestHelpers.TestClock {
    const clock = this.testClock(id);
    const to = r.integer('frozen_time', { required: true })!;
    r.done();
    if (clock.status !== 'ready') throw invalid(`The test clock ${id} is currently advancing. Wait until its status is \`ready\` to advance it again.`, undefined, 'test_clock_not_ready' as string);
    if (to <= clock.frozen_time) throw invalid('The frozen_time must be later than the test clock\'s current frozen_time.', 'frozen_time');
    const limit = this.advanceLimit(clock);
    if (to > limit) {
      throw invalid(`Cannot advance the test clock more than two intervals of its shortest subscription (or two years) at once: frozen_time must be at most ${limit}.`, 'frozen_time');
    }
    clock.status = 'advancing';
    clock.status_details = { advancing: { target_frozen_time: to } };
    this.s.emit('test_helpers.test_clock.advancing', clock, id);
    const answer = structuredClone(clock);
    setImmediate(() => {
      if (!this.s.testClocks.has(id)) return;
      try {
        this.renewals.runDue(id, to);
      } catch (err) {
        this.s.log(`test clock ${id}: ${(err as Error).message}`);
      }
      clock.frozen_time = to;
      clock.status = 'ready';
      clock.status_details = {};
      this.s.emit('test_helpers.test_clock.ready', clock, id);
    });
    return answer;
  }

  /** Stripe's limit: two intervals of the clock's shortest subscription, or two years without one. */
  private advanceLimit(clock: Stripe.TestHelpers.TestClock): number {
    const limits = [...this.s.subscriptions.values()]
      .filter((s) => this.s.subState.get(s.id)?.clock === clock.id && !['canceled', 'incomplete_expired'].includes(s.status))
      .map((s) => addIntervals(clock.frozen_time, s.items.data[0].price.recurring!.interval as Interval, s.items.data[0].price.recurring!.interval_count, 2));
    return Math.min(addIntervals(clock.frozen_time, 'year', 1, 2), ...limits);
  }

  deleteTestClock(id: string): Stripe.TestHelpers.DeletedTestClock {
    const clock = this.testClock(id);
    for (const [customer, c] of this.s.customerClock) {
      if (c === id) this.s.customers.delete(customer);
    }
    for (const [sub, state] of this.s.subState) {
      if (state.clock === id) this.s.subscriptions.delete(sub);
    }
    this.s.testClocks.delete(id);
    this.s.clocks.removeTestClock(id);
    this.s.emit('test_helpers.test_clock.deleted', clock, null);
    return { id, object: 'test_helpers.test_clock', deleted: true };
  }

  routes(api: Api): void {
    api.on('POST', '/v1/test_helpers/test_clocks', (r) => this.createTestClock(r));
    api.on('GET', '/v1/test_helpers/test_clocks', (r) => page(newest(this.s.testClocks.values()), r, '/v1/test_helpers/test_clocks', 'test_helpers.test_clock'));
    api.on('GET', '/v1/test_helpers/test_clocks/:id', (_r, [id]) => this.testClock(id));
    api.on('DELETE', '/v1/test_helpers/test_clocks/:id', (_r, [id]) => this.deleteTestClock(id));
    api.on('POST', '/v1/test_helpers/test_clocks/:id/advance', (r, [id]) => this.advanceTestClock(id, r));
  }
}
