// Customers in the Stripe emulator, and the cards attached to them: a test payment method
// (`pm_card_visa`, ...) attached makes a new card, as on Stripe; deleting a customer ends their
// subscriptions.
import type Stripe from 'stripe';
import { type Api, found, newest, page } from './api';
import { testCardByPaymentMethod } from './cards';
import { invalid, mergeMetadata, missing, type Reader } from './form';
import * as o from './objects';
import type { Payments } from './payments';
import type { Store } from './store';
import type { Subscriptions } from './subscriptions';

export class Customers {
  constructor(
    private readonly s: Store,
    private readonly payments: Payments,
    private readonly subscriptions: Subscriptions,
  ) {}

  createCustomer(r: Reader): Stripe.Customer {
    const testClock = r.string('test_clock');
    if (testClock && !this.s.testClocks.has(testClock)) throw missing('test_clock', testClock, 'test_clock');
    const c = o.customer({
      id: o.newId('cus', 14),
      email: r.string('email', { max: 512 }) || null,
      name: r.string('name', { max: 256 }) || null,
      metadata: r.metadata() ?? {},
      created: this.s.clocks.now(testClock ?? null),
      testClock: testClock ?? null,
    });
    const description = r.string('description');
    if (description) c.description = description;
    const pm = r.string('payment_method');
    r.done();
    this.s.customers.set(c.id, c);
    this.s.customerClock.set(c.id, testClock ?? null);
    this.s.emit('customer.created', c, testClock ?? null);
    if (pm) this.attachPaymentMethod(pm, c.id);
    return c;
  }

  updateCustomer(id: string, r: Reader): Stripe.Customer {
    const c = this.s.customer(id, 'id');
    const before = structuredClone(c);
    const email = r.string('email', { max: 512 });
    if (email !== undefined) c.email = email || null;
    const name = r.string('name', { max: 256 });
    if (name !== undefined) c.name = name || null;
    const description = r.string('description');
    if (description !== undefined) c.description = description || null;
    c.metadata = mergeMetadata(c.metadata, r.metadata());
    const settings = r.hash('invoice_settings');
    const pm = settings?.string('default_payment_method');
    settings?.done();
    r.done();
    if (pm !== undefined) {
      if (pm && this.s.paymentMethods.get(pm)?.customer !== c.id) {
        throw invalid(`No such PaymentMethod: '${pm}'; It's possible this PaymentMethod exists on one of your connected accounts, in which case you should retry this request on that connected account.`, 'invoice_settings[default_payment_method]', 'resource_missing');
      }
      c.invoice_settings.default_payment_method = pm || null;
    }
    this.s.emitUpdated('customer.updated', c, before, this.s.clockOfCustomer(c.id));
    return c;
  }

  deleteCustomer(id: string): Stripe.DeletedCustomer {
    const c = this.s.customer(id, 'id');
    for (const sub of this.s.subscriptions.values()) {
      if (sub.customer === id && !['canceled', 'incomplete_expired'].includes(sub.status)) this.subscriptions.cancelNow(sub, 'cancellation_requested');
    }
    this.s.customers.delete(id);
    this.s.emit('customer.deleted', c, this.s.clockOfCustomer(id));
    return { id, object: 'customer', deleted: true };
  }

  /**
   * `POST /v1/payment_methods/:id/attach`: a test payment method (`pm_card_visa`,
   * `pm_card_chargeCustomerFail`, ...) makes a new card for the customer, as on Stripe; a card
   * of nobody's is attached as it is.
   */
  attachPaymentMethod(id: string, customerId: string): Stripe.PaymentMethod {
    const c = this.s.customer(customerId);
    const test = testCardByPaymentMethod(id);
    if (test) {
      const year = new Date(this.s.clocks.now(this.s.clockOfCustomer(c.id)) * 1000).getUTCFullYear() + 3;
      return this.payments.newPaymentMethod(test, 12, year, { name: c.name ?? null, email: c.email }, c.id);
    }
    const pm = this.s.paymentMethods.get(id);
    if (!pm) throw missing('PaymentMethod', id, 'payment_method');
    if (pm.customer && pm.customer !== c.id) throw invalid('The payment method you provided has already been attached to a customer.', 'payment_method', 'payment_method_unexpected_state');
    pm.customer = c.id;
    this.s.emit('payment_method.attached', pm, this.s.clockOfCustomer(c.id));
    return pm;
  }

  detachPaymentMethod(id: string): Stripe.PaymentMethod {
    const pm = this.s.paymentMethods.get(id);
    if (!pm) throw missing('PaymentMethod', id);
    if (!pm.customer) throw invalid('The payment method you provided is not attached to a customer so detachment is impossible.', undefined, 'payment_method_unexpected_state');
    const customer = typeof pm.customer === 'string' ? pm.customer : pm.customer.id;
    pm.customer = null;
    const c = this.s.customers.get(customer);
    if (c?.invoice_settings.default_payment_method === id) c.invoice_settings.default_payment_method = null;
    this.s.emit('payment_method.detached', pm, this.s.clockOfCustomer(customer));
    return pm;
  }

  routes(api: Api): void {
    const s = this.s;
    api.on('POST', '/v1/customers', (r) => this.createCustomer(r));
    api.on('GET', '/v1/customers', (r) => {
      const email = r.string('email');
      const testClock = r.string('test_clock');
      return page(newest(s.customers.values()).filter((c) => (!email || c.email === email) && (!testClock || c.test_clock === testClock)), r, '/v1/customers', 'customer');
    });
    api.on('GET', '/v1/customers/:id', (_r, [id]) => s.customer(id, 'id'));
    api.on('POST', '/v1/customers/:id', (r, [id]) => this.updateCustomer(id, r));
    api.on('DELETE', '/v1/customers/:id', (_r, [id]) => this.deleteCustomer(id));
    api.on('GET', '/v1/customers/:id/payment_methods', (r, [id]) => {
      s.customer(id, 'customer');
      r.oneOf('type', ['card'] as const);
      return page(newest(s.paymentMethods.values()).filter((p) => p.customer === id), r, `/v1/customers/${id}/payment_methods`, 'payment_method');
    });
    api.on('GET', '/v1/payment_methods', (r) => {
      const customer = r.string('customer');
      r.oneOf('type', ['card'] as const);
      return page(newest(s.paymentMethods.values()).filter((p) => !customer || p.customer === customer), r, '/v1/payment_methods', 'payment_method');
    });
    api.on('GET', '/v1/payment_methods/:id', (_r, [id]) => found(s.paymentMethods.get(id), 'PaymentMethod', id));
    api.on('POST', '/v1/payment_methods/:id/attach', (r, [id]) => this.attachPaymentMethod(id, r.required('customer')));
    api.on('POST', '/v1/payment_methods/:id/detach', (_r, [id]) => this.detachPaymentMethod(id));
  }
}
