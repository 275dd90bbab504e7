// Subscriptions and their items, invoices and their lines and payments, subscription
// schedules, billing portal sessions and test clocks.
import type Stripe from 'stripe';
import { planOf } from './catalog';
import { decimal, list, newId } from './common';

export function subscriptionItem(i: { id: string; price: Stripe.Price; quantity: number; subscription: string; periodStart: number; periodEnd: number; created: number }): Stripe.SubscriptionItem {
  return {
    id: i.id,
    object: 'subscription_item',
    billing_thresholds: null,
    created: i.created,
    current_period_end: i.periodEnd,
    current_period_start: i.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(i.price),
    price: i.price,
    quantity: i.quantity,
    subscription: i.subscription,
    tax_rates: [],
  };
}

export function subscription(s: {
  id: string;
  customer: string;
  item: Stripe.SubscriptionItem;
  currency: string;
  defaultPaymentMethod: string | null;
  metadata: Stripe.Metadata;
  created: number;
  testClock: string | null;
}): Stripe.Subscription {
  return {
    id: s.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: s.item.current_period_start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: { proration_discounts: 'included' }, type: 'flexible', updated_at: s.created },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: s.created,
    currency: s.currency,
    customer: s.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: s.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: list(`/v1/subscription_items?subscription=${s.id}`, [s.item]),
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: s.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: s.created,
    status: 'incomplete',
    test_clock: s.testClock,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: null,
  };
}

export interface InvoiceLineInput {
  description: string;
  amount: number;
  quantity: number;
  price: Stripe.Price;
  periodStart: number;
  periodEnd: number;
  proration: boolean;
  subscriptionItem: string;
}

export function invoiceLine(invoice: string, subscription: string, l: InvoiceLineInput): Stripe.InvoiceLineItem {
  return {
    id: newId('il'),
    object: 'line_item',
    amount: l.amount,
    currency: l.price.currency,
    description: l.description,
    discount_amounts: [],
    discountable: !l.proration,
    discounts: [],
    invoice,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: l.proration,
        proration_details: { credited_items: null },
        subscription,
        subscription_item: l.subscriptionItem,
      },
      type: 'subscription_item_details',
    },
    period: { end: l.periodEnd, start: l.periodStart },
    pretax_credit_amounts: [],
    pricing: { price_details: { price: l.price.id, product: typeof l.price.product === 'string' ? l.price.product : l.price.product.id }, type: 'price_details', unit_amount_decimal: l.price.unit_amount_decimal },
    quantity: l.quantity,
    quantity_decimal: decimal(l.quantity),
    subscription,
    subtotal: l.amount,
    taxes: [],
  };
}

export function invoice(i: {
  id: string;
  number: string;
  customer: Stripe.Customer;
  subscription: Stripe.Subscription;
  reason: Stripe.Invoice.BillingReason;
  lines: Stripe.InvoiceLineItem[];
  periodStart: number;
  periodEnd: number;
  created: number;
  hostedUrl: string;
}): Stripe.Invoice {
  const total = i.lines.reduce((sum, l) => sum + l.amount, 0);
  return {
    id: i.id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Humanly',
    account_tax_ids: null,
    amount_due: Math.max(0, total),
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: Math.max(0, total),
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: i.reason,
    collection_method: 'charge_automatically',
    created: i.created,
    currency: i.subscription.currency,
    custom_fields: null,
    customer: i.customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: i.customer.email,
    customer_name: i.customer.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: i.hostedUrl,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: list(`/v1/invoices/${i.id}/lines`, i.lines),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: i.number,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: i.subscription.metadata, subscription: i.subscription.id },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: i.periodEnd,
    period_start: i.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: i.subscription.test_clock,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  };
}

export function invoicePayment(p: { invoice: Stripe.Invoice; paymentIntent: Stripe.PaymentIntent; paid: boolean; created: number }): Stripe.InvoicePayment {
  return {
    id: newId('inpay'),
    object: 'invoice_payment',
    amount_paid: p.paid ? p.paymentIntent.amount : null,
    amount_requested: p.paymentIntent.amount,
    created: p.created,
    currency: p.paymentIntent.currency,
    invoice: p.invoice.id,
    is_default: true,
    livemode: false,
    payment: { payment_intent: p.paymentIntent.id, type: 'payment_intent' },
    status: p.paid ? 'paid' : 'open',
    status_transitions: { canceled_at: null, paid_at: p.paid ? p.created : null },
  };
}

export function subscriptionSchedule(s: {
  id: string;
  subscription: Stripe.Subscription;
  current: { price: string; start: number; end: number };
  next: { price: string; start: number; end: number };
  created: number;
}): Stripe.SubscriptionSchedule {
  const phase = (p: { price: string; start: number; end: number }): Stripe.SubscriptionSchedule.Phase => ({
    add_invoice_items: [],
    application_fee_percent: null,
    billing_cycle_anchor: null,
    billing_thresholds: null,
    collection_method: null,
    currency: s.subscription.currency,
    default_payment_method: null,
    description: null,
    discounts: [],
    end_date: p.end,
    invoice_settings: null,
    items: [{ billing_thresholds: null, discounts: [], metadata: {}, plan: p.price, price: p.price, quantity: 1, tax_rates: [] }],
    metadata: {},
    on_behalf_of: null,
    proration_behavior: 'none',
    start_date: p.start,
    transfer_data: null,
    trial_end: null,
  });
  return {
    id: s.id,
    object: 'subscription_schedule',
    application: null,
    billing_mode: s.subscription.billing_mode,
    canceled_at: null,
    completed_at: null,
    created: s.created,
    current_phase: { end_date: s.current.end, start_date: s.current.start },
    customer: typeof s.subscription.customer === 'string' ? s.subscription.customer : s.subscription.customer.id,
    customer_account: null,
    default_settings: {
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: 'automatic',
      billing_thresholds: null,
      collection_method: 'charge_automatically',
      default_payment_method: null,
      description: null,
      invoice_settings: { account_tax_ids: null, custom_fields: null, days_until_due: null, description: null, footer: null, issuer: { type: 'self' } },
      on_behalf_of: null,
      transfer_data: null,
    },
    end_behavior: 'release',
    livemode: false,
    metadata: {},
    pause_schedules: [],
    phases: [phase(s.current), phase(s.next)],
    released_at: null,
    released_subscription: null,
    status: 'active',
    subscription: s.subscription.id,
    test_clock: s.subscription.test_clock,
  };
}

export function billingPortalSession(b: { id: string; customer: string; returnUrl: string | null; url: string; created: number }): Stripe.BillingPortal.Session {
  return {
    id: b.id,
    object: 'billing_portal.session',
    configuration: 'bpc_humanly_default',
    created: b.created,
    customer: b.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: b.returnUrl,
    url: b.url,
  };
}

export function testClock(c: { id: string; frozenTime: number; name: string | null; created: number }): Stripe.TestHelpers.TestClock {
  return {
    id: c.id,
    object: 'test_helpers.test_clock',
    created: c.created,
    deletes_after: c.created + 30 * 24 * 3600,
    frozen_time: c.frozenTime,
    livemode: false,
    name: c.name,
    status: 'ready',
    status_details: {},
  };
}
