// The billing portal in the Stripe emulator: sessions made through the API, and the hosted page
// where the customer cancels or renews their plan, switches it (an upgrade now with proration, a
// downgrade at the period's end) or gives a new card.
import type Stripe from 'stripe';
import type { Api } from './api';
import { readCardForm } from './cards';
import type { Reader } from './form';
import { formOf, type Pages, type PageRequest, redirect, sendHtml } from './http';
import type { Invoices } from './invoices';
import * as o from './objects';
import { type CardFormError, messagePage, portalPage } from './pages';
import type { Payments } from './payments';
import type { Schedules } from './schedules';
import type { Store } from './store';
import type { Subscriptions } from './subscriptions';

const NOTICES: Record<string, string> = {
  canceled: 'Your plan will end at the end of this period.',
  renewed: 'Your plan will renew.',
  switched: 'Your plan has been updated.',
  card: 'Your card has been saved.',
};

export interface PortalDeps {
  subscriptions: Subscriptions;
  schedules: Schedules;
  invoices: Invoices;
  payments: Payments;
}

export class Portal {
  constructor(
    private readonly s: Store,
    private readonly deps: PortalDeps,
  ) {}

  createPortalSession(r: Reader): Stripe.BillingPortal.Session {
    const customer = this.s.customer(r.required('customer'));
    const returnUrl = r.url('return_url') ?? null;
    r.string('configuration');
    r.string('locale');
    r.done();
    const id = o.newId('bps');
    const session = o.billingPortalSession({ id, customer: customer.id, returnUrl, url: this.s.url(`/p/session/${id}`), created: this.s.clocks.now(this.s.clockOfCustomer(customer.id)) });
    this.s.portalSessions.set(id, session);
    return session;
  }

  /** The customer's subscription the portal manages: the newest one not ended. */
  portalSubscription(customerId: string): Stripe.Subscription | undefined {
    return [...this.s.subscriptions.values()].reverse().find((s) => s.customer === customerId && !['canceled', 'incomplete_expired'].includes(s.status));
  }

  portalCancel(customerId: string, cancel: boolean): void {
    const sub = this.portalSubscription(customerId);
    if (!sub) return;
    const before = structuredClone(sub);
    // Cancelling drops a downgrade waiting for the period's end, as the portal does.
    const state = this.s.subState.get(sub.id)!;
    if (cancel && state.scheduled) this.deps.schedules.releaseSchedule(sub, state, 'released');
    this.deps.subscriptions.setCancelAtPeriodEnd(sub, cancel);
    this.s.emitUpdated('customer.subscription.updated', sub, before, this.s.clockOfSubscription(sub));
  }

  /** The portal's plan switch: an upgrade at once with proration, invoiced now; a downgrade at the period's end. */
  portalSwitch(customerId: string, priceId: string): string | undefined {
    const sub = this.portalSubscription(customerId);
    const next = this.s.prices.get(priceId);
    if (!sub || !next?.recurring || !next.active) return 'That plan is not available.';
    const item = sub.items.data[0];
    if (next.id === item.price.id) return undefined;
    if ((next.unit_amount ?? 0) > (item.price.unit_amount ?? 0)) {
      const before = structuredClone(sub);
      const lines = this.deps.subscriptions.switchPrice(sub, next, item.quantity ?? 1, 'always_invoice');
      this.s.emitUpdated('customer.subscription.updated', sub, before, this.s.clockOfSubscription(sub));
      this.deps.subscriptions.invoiceNow(sub, lines);
    } else this.deps.schedules.scheduleDowngrade(sub, next);
    return undefined;
  }

  /** The portal's new card: the customer's default from now on; an open invoice is tried with it at once. */
  portalUpdateCard(customerId: string, form: { name?: string; number?: string; expiry?: string; cvc?: string }): { field: 'number' | 'expiry' | 'cvc' | 'name'; message: string } | undefined {
    const c = this.s.customer(customerId);
    const clock = this.s.clockOfCustomer(c.id);
    const name = (form.name ?? '').trim();
    if (!name) return { field: 'name', message: 'Enter the name on your card.' };
    const read = readCardForm(form, new Date(this.s.clocks.now(clock) * 1000));
    if ('decline' in read) return { field: read.field, message: read.decline.message };
    const pm = this.deps.payments.newPaymentMethod(read.card, read.expMonth, read.expYear, { name, email: c.email }, c.id);
    const before = structuredClone(c);
    c.invoice_settings.default_payment_method = pm.id;
    this.s.emitUpdated('customer.updated', c, before, clock);
    const sub = this.portalSubscription(c.id);
    if (sub) {
      const subBefore = structuredClone(sub);
      sub.default_payment_method = pm.id;
      this.s.emitUpdated('customer.subscription.updated', sub, subBefore, clock);
      for (const inv of [...this.s.invoices.values()]) {
        if (inv.status === 'open' && this.s.subscriptionOf(inv) === sub) this.deps.invoices.payInvoice(inv, false);
      }
    }
    return undefined;
  }

  /** The customer's cards and invoices, newest first, for the portal page. */
  portalView(customerId: string): { customer: Stripe.Customer; subscription?: Stripe.Subscription; card?: Stripe.PaymentMethod; invoices: Stripe.Invoice[] } {
    const c = this.s.customer(customerId);
    const sub = this.portalSubscription(c.id);
    const pmId = (sub?.default_payment_method as string | null) ?? (c.invoice_settings.default_payment_method as string | null);
    return {
      customer: c,
      subscription: sub,
      card: pmId ? this.s.paymentMethods.get(pmId) : undefined,
      invoices: [...this.s.invoices.values()].filter((i) => i.customer === c.id).reverse(),
    };
  }

  routes(api: Api): void {
    api.on('POST', '/v1/billing_portal/sessions', (r) => this.createPortalSession(r));
  }

  /** The hosted billing portal: GET shows it, POSTs change the plan or the card, then show it again. */
  pages(pages: Pages): void {
    pages.on(/^\/p\/session\/(bps_[A-Za-z0-9]+)(?:\/(cancel|renew|switch|payment-method))?$/, undefined, (p) => this.page(p));
  }

  private async page({ req, res, match: [id, action], method, url }: PageRequest): Promise<void> {
    const ps = this.s.portalSessions.get(id);
    if (!ps) return sendHtml(res, 404, messagePage('Page not found', 'This billing link is not valid.'));
    const plans = [...this.s.prices.values()]
      .filter((p) => p.active && p.recurring)
      .map((price) => ({ price, name: this.s.productName(price) }))
      .sort((a, b) => (a.price.unit_amount ?? 0) - (b.price.unit_amount ?? 0));
    const show = (status: number, notice?: string, error?: CardFormError, values?: Record<string, string>) => {
      const view = this.portalView(ps.customer);
      const scheduled = view.subscription?.schedule ? this.s.schedules.get(view.subscription.schedule as string) : undefined;
      const scheduledPrice = scheduled?.phases[1]?.items[0]?.price;
      const scheduledPlan = typeof scheduledPrice === 'string' ? plans.find((x) => x.price.id === scheduledPrice)?.name : undefined;
      sendHtml(res, status, portalPage({ sessionId: id, returnUrl: ps.return_url, ...view, plans, scheduledPlan, notice, error, values }));
    };
    if (method === 'GET' && !action) return show(200, NOTICES[url.searchParams.get('done') ?? '']);
    if (method !== 'POST') return sendHtml(res, 405, messagePage('Not allowed', 'This page takes a form.'));
    const form = await formOf(req);
    const done = (what: string) => redirect(res, `/p/session/${id}?done=${what}`);
    if (action === 'cancel') {
      this.portalCancel(ps.customer, true);
      return done('canceled');
    }
    if (action === 'renew') {
      this.portalCancel(ps.customer, false);
      return done('renewed');
    }
    if (action === 'switch') {
      const problem = this.portalSwitch(ps.customer, form.price ?? '');
      return problem ? show(400, undefined, { field: 'session', message: problem }) : done('switched');
    }
    if (action === 'payment-method') {
      const problem = this.portalUpdateCard(ps.customer, form);
      return problem ? show(400, undefined, problem, { name: form.name ?? '', number: form.number ?? '', expiry: form.expiry ?? '', cvc: '' }) : done('card');
    }
    return sendHtml(res, 404, messagePage('Page not found', 'The billing portal has no such action.'));
  }
}
