// Stripe's objects as the API answers them, typed with the `stripe` package's own types (only
// its types: the emulator never loads the package), so `tsc` refuses a shape that is not
// Stripe's. Each builder fills every field the type requires, with Stripe's values for what the
// emulator does not model (no tax, no discounts, no shipping, test mode).
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/** The API version the `stripe` package of this repository speaks (its `Stripe.API_VERSION`). */
export const API_VERSION = '2026-10-28.endive';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const randomText = (length: number) => [...randomBytes(length)].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('');

/** An id as Stripe makes them: a prefix, then random letters and digits (`cus_...`, `cs_test_...`). */
export function newId(prefix: string, length = 24): string {
  return `${prefix}_${randomText(length)}`;
}

export const newSecret = (prefix: string) => `${prefix}_${randomText(32)}`;

/** A decimal as the API sends it: a string (the package's `Decimal` type is branded). */
const decimal = (value: number): Stripe.Decimal => String(value) as unknown as Stripe.Decimal;

export function list<T>(url: string, data: T[], hasMore = false): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url };
}

// --- catalogue ---

export function product(p: { id: string; name: string; description?: string | null; metadata?: Stripe.Metadata; created: number }): Stripe.Product {
  return {
    id: p.id,
    object: 'product',
    active: true,
    created: p.created,
    default_price: null,
    description: p.description ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: p.metadata ?? {},
    name: p.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: p.created,
    url: null,
  };
}

export function price(p: {
  id: string;
  product: string;
  unitAmount: number;
  currency: string;
  recurring?: { interval: Stripe.Price.Recurring.Interval; intervalCount: number } | null;
  lookupKey?: string | null;
  nickname?: string | null;
  metadata?: Stripe.Metadata;
  created: number;
}): Stripe.Price {
  return {
    id: p.id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: p.created,
    currency: p.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: p.lookupKey ?? null,
    metadata: p.metadata ?? {},
    nickname: p.nickname ?? null,
    product: p.product,
    recurring: p.recurring
      ? { interval: p.recurring.interval, interval_count: p.recurring.intervalCount, meter: null, trial_period_days: null, usage_type: 'licensed' }
      : null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: p.recurring ? 'recurring' : 'one_time',
    unit_amount: p.unitAmount,
    unit_amount_decimal: decimal(p.unitAmount),
  };
}

/** The legacy `plan` each subscription item still carries, from its recurring price. */
export function planOf(pr: Stripe.Price): Stripe.Plan {
  return {
    id: pr.id,
    object: 'plan',
    active: pr.active,
    amount: pr.unit_amount,
    amount_decimal: pr.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: pr.created,
    currency: pr.currency,
    interval: pr.recurring?.interval ?? 'month',
    interval_count: pr.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: pr.metadata,
    meter: null,
    nickname: pr.nickname,
    product: typeof pr.product === 'string' ? pr.product : pr.product.id,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

// --- customers and cards ---

export function customer(c: { id: string; email: string | null; name: string | null; metadata: Stripe.Metadata; created: number; testClock: string | null }): Stripe.Customer {
  return {
    id: c.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: c.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: c.email,
    invoice_prefix: c.id.slice(4, 12).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: c.metadata,
    name: c.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: c.testClock,
  };
}

export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  funding: string;
  fingerprint: string;
}

export function paymentMethod(p: { id: string; card: CardDetails; customer: string | null; name: string | null; email: string | null; created: number }): Stripe.PaymentMethod {
  return {
    id: p.id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: null, email: p.email, name: p.name, phone: null, tax_id: null },
    card: {
      brand: p.card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: p.card.brand,
      exp_month: p.card.expMonth,
      exp_year: p.card.expYear,
      fingerprint: p.card.fingerprint,
      funding: p.card.funding,
      generated_from: null,
      last4: p.card.last4,
      networks: { available: [p.card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: p.created,
    customer: p.customer,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

// --- payments ---

export function paymentIntent(p: {
  id: string;
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Stripe.Metadata;
  created: number;
}): Stripe.PaymentIntent {
  return {
    id: p.id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: p.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${p.id}_secret_${randomText(24)}`,
    confirmation_method: 'automatic',
    created: p.created,
    currency: p.currency,
    customer: p.customer,
    customer_account: null,
    description: p.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: p.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_group: null,
  };
}

export function charge(c: {
  id: string;
  amount: number;
  currency: string;
  customer: string | null;
  paymentIntent: string;
  paymentMethod: Stripe.PaymentMethod;
  description: string | null;
  metadata: Stripe.Metadata;
  created: number;
  receiptUrl: string;
  failure: { code: string; message: string; declineCode: string } | null;
}): Stripe.Charge {
  const card = c.paymentMethod.card!;
  const paid = !c.failure;
  return {
    id: c.id,
    object: 'charge',
    amount: c.amount,
    amount_captured: paid ? c.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: paid ? newId('txn') : null,
    billing_details: c.paymentMethod.billing_details,
    calculated_statement_descriptor: 'HUMANLY',
    captured: paid,
    created: c.created,
    currency: c.currency,
    customer: c.customer,
    description: c.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: c.failure?.code ?? null,
    failure_message: c.failure?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: c.metadata,
    on_behalf_of: null,
    outcome: paid
      ? { advice_code: null, network_advice_code: null, network_decline_code: null, network_status: 'approved_by_network', reason: null, risk_level: 'normal', risk_score: 20, seller_message: 'Payment complete.', type: 'authorized' }
      : {
          advice_code: 'try_again_later',
          network_advice_code: null,
          network_decline_code: null,
          network_status: 'declined_by_network',
          reason: c.failure!.declineCode,
          risk_level: 'normal',
          risk_score: 20,
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        },
    paid,
    payment_intent: c.paymentIntent,
    payment_method: c.paymentMethod.id,
    payment_method_details: {
      type: 'card',
      card: {
        amount_authorized: paid ? c.amount : null,
        authorization_code: paid ? String(100000 + (c.amount % 900000)) : null,
        brand: card.brand,
        checks: card.checks,
        country: card.country,
        electronic_commerce_indicator: null,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        extended_authorization: { status: 'disabled' },
        fingerprint: card.fingerprint ?? null,
        funding: card.funding,
        incremental_authorization: { status: 'unavailable' },
        installments: null,
        last4: card.last4,
        mandate: null,
        multicapture: { status: 'unavailable' },
        network: card.brand,
        network_token: { used: false },
        network_transaction_id: paid ? randomText(15) : null,
        overcapture: { maximum_amount_capturable: c.amount, status: 'unavailable' },
        regulated_status: 'unregulated',
        three_d_secure: null,
        transaction_link_id: null,
        wallet: null,
      },
    },
    receipt_email: c.paymentMethod.billing_details.email,
    receipt_number: null,
    receipt_url: paid ? c.receiptUrl : null,
    refunded: false,
    refunds: list(`/v1/charges/${c.id}/refunds`, []),
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: paid ? 'succeeded' : 'failed',
    transfer_data: null,
    transfer_group: null,
  };
}

export function refund(r: {
  id: string;
  amount: number;
  charge: Stripe.Charge;
  reason: Stripe.Refund.Reason | null;
  metadata: Stripe.Metadata;
  created: number;
}): Stripe.Refund {
  return {
    id: r.id,
    object: 'refund',
    amount: r.amount,
    balance_transaction: newId('txn'),
    charge: r.charge.id,
    created: r.created,
    currency: r.charge.currency,
    customer: r.charge.customer,
    customer_account: null,
    destination_details: { type: 'card', card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' } },
    metadata: r.metadata,
    payment_intent: r.charge.payment_intent,
    payment_method: r.charge.payment_method,
    reason: r.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

const NO_EVIDENCE: Stripe.Dispute.Evidence = {
  access_activity_log: null,
  billing_address: null,
  cancellation_policy: null,
  cancellation_policy_disclosure: null,
  cancellation_rebuttal: null,
  customer_communication: null,
  customer_email_address: null,
  customer_name: null,
  customer_purchase_ip: null,
  customer_signature: null,
  duplicate_charge_documentation: null,
  duplicate_charge_explanation: null,
  duplicate_charge_id: null,
  enhanced_evidence: {},
  product_description: null,
  receipt: null,
  refund_policy: null,
  refund_policy_disclosure: null,
  refund_refusal_explanation: null,
  service_date: null,
  service_documentation: null,
  shipping_address: null,
  shipping_carrier: null,
  shipping_date: null,
  shipping_documentation: null,
  shipping_tracking_number: null,
  uncategorized_file: null,
  uncategorized_text: null,
};

export function dispute(d: { id: string; charge: Stripe.Charge; reason: string; created: number; dueBy: number }): Stripe.Dispute {
  return {
    id: d.id,
    object: 'dispute',
    amount: d.charge.amount - d.charge.amount_refunded,
    balance_transactions: [],
    charge: d.charge.id,
    created: d.created,
    currency: d.charge.currency,
    enhanced_eligibility_types: [],
    evidence: { ...NO_EVIDENCE },
    evidence_details: { due_by: d.dueBy, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0, submission_method: 'not_submitted' },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: d.charge.payment_intent,
    reason: d.reason,
    status: 'needs_response',
  };
}

// --- checkout ---

export function checkoutLineItem(pr: Stripe.Price, quantity: number, productName: string): Stripe.LineItem {
  const amount = (pr.unit_amount ?? 0) * quantity;
  return {
    id: newId('li'),
    object: 'item',
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: pr.currency,
    description: productName,
    metadata: {},
    price: pr,
    quantity,
  };
}

export function checkoutSession(s: {
  id: string;
  mode: 'payment' | 'subscription';
  url: string;
  amount: number;
  currency: string;
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  metadata: Stripe.Metadata;
  successUrl: string | null;
  cancelUrl: string | null;
  created: number;
  expiresAt: number;
}): Stripe.Checkout.Session {
  return {
    id: s.id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: s.amount,
    amount_total: s.amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: s.cancelUrl,
    client_reference_id: s.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: s.created,
    currency: s.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: s.customer,
    customer_account: null,
    customer_creation: s.customer ? null : s.mode === 'subscription' ? 'always' : 'if_required',
    customer_details: null,
    customer_email: s.customerEmail,
    discounts: [],
    expires_at: s.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: s.mode === 'payment' ? { enabled: false, invoice_data: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: null, metadata: {}, rendering_options: null } } : null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: s.metadata,
    mode: s.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: s.mode === 'subscription' ? 'always' : null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: s.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: s.url,
    wallet_options: null,
  };
}

// --- billing ---

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

export function webhookEndpoint(w: { id: string; url: string; secret: string; enabledEvents: string[]; description: string | null; metadata: Stripe.Metadata; created: number }): Stripe.WebhookEndpoint {
  return {
    id: w.id,
    object: 'webhook_endpoint',
    api_version: API_VERSION,
    application: null,
    created: w.created,
    description: w.description,
    enabled_events: w.enabledEvents,
    livemode: false,
    metadata: w.metadata,
    secret: w.secret,
    status: 'enabled',
    url: w.url,
  };
}

// --- Connect: connected accounts, their bank accounts, transfers and payouts ---

/** A requirements hash with these fields due (all of them past due: a new account is disabled until they are given). */
export function requirements(due: string[]): Stripe.Account.Requirements {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: [...due],
    disabled_reason: due.length ? 'requirements.past_due' : null,
    errors: [],
    eventually_due: [...due],
    past_due: [...due],
    pending_verification: [],
  };
}

export function connectedAccount(a: {
  id: string;
  email: string | null;
  businessType: Stripe.Account.BusinessType | null;
  controller: Stripe.Account.Controller;
  type: Stripe.Account.Type;
  capabilities: Stripe.Account.Capabilities;
  due: string[];
  metadata: Stripe.Metadata;
  created: number;
}): Stripe.Account {
  return {
    id: a.id,
    object: 'account',
    business_profile: {
      mcc: null,
      minority_owned_business_designation: null,
      name: null,
      product_description: null,
      specified_commercial_transactions_act_url: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    },
    business_type: a.businessType,
    capabilities: a.capabilities,
    charges_enabled: false,
    controller: a.controller,
    country: 'US',
    created: a.created,
    default_currency: 'usd',
    details_submitted: false,
    email: a.email,
    external_accounts: list(`/v1/accounts/${a.id}/external_accounts`, []),
    future_requirements: requirements([]),
    metadata: a.metadata,
    payouts_enabled: false,
    requirements: requirements(a.due),
    tos_acceptance: { date: null, ip: null, user_agent: null },
    type: a.type,
  };
}

export function bankAccount(b: { id: string; account: string; holderName: string; routingNumber: string; accountNumber: string; fingerprint: string }): Stripe.BankAccount {
  return {
    id: b.id,
    object: 'bank_account',
    account: b.account,
    account_holder_name: b.holderName,
    account_holder_type: 'individual',
    account_type: null,
    available_payout_methods: ['standard'],
    bank_name: 'STRIPE TEST BANK',
    country: 'US',
    currency: 'usd',
    default_for_currency: true,
    fingerprint: b.fingerprint,
    last4: b.accountNumber.slice(-4),
    metadata: {},
    routing_number: b.routingNumber,
    status: 'new',
  };
}

export function accountLink(l: { url: string; created: number; expiresAt: number }): Stripe.AccountLink {
  return { object: 'account_link', created: l.created, expires_at: l.expiresAt, url: l.url };
}

export function transfer(t: {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  destinationPayment: string;
  transferGroup: string | null;
  description: string | null;
  metadata: Stripe.Metadata;
  created: number;
}): Stripe.Transfer {
  return {
    id: t.id,
    object: 'transfer',
    amount: t.amount,
    amount_reversed: 0,
    balance_transaction: newId('txn'),
    created: t.created,
    currency: t.currency,
    description: t.description,
    destination: t.destination,
    destination_payment: t.destinationPayment,
    livemode: false,
    metadata: t.metadata,
    reversals: list(`/v1/transfers/${t.id}/reversals`, []),
    reversed: false,
    source_transaction: null,
    source_type: 'card',
    transfer_group: t.transferGroup,
  };
}

export function transferReversal(r: { id: string; amount: number; currency: string; transfer: string; metadata: Stripe.Metadata; created: number }): Stripe.TransferReversal {
  return {
    id: r.id,
    object: 'transfer_reversal',
    amount: r.amount,
    balance_transaction: newId('txn'),
    created: r.created,
    currency: r.currency,
    destination_payment_refund: newId('pyr'),
    metadata: r.metadata,
    source_refund: null,
    transfer: r.transfer,
  };
}

/** An automatic payout of a connected account's balance to its bank account. */
export function payout(p: { id: string; amount: number; currency: string; destination: string; created: number; arrivalDate: number }): Stripe.Payout {
  return {
    id: p.id,
    object: 'payout',
    amount: p.amount,
    application_fee: null,
    application_fee_amount: null,
    arrival_date: p.arrivalDate,
    automatic: true,
    balance_transaction: newId('txn'),
    created: p.created,
    currency: p.currency,
    description: 'STRIPE PAYOUT',
    destination: p.destination,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: {},
    method: 'standard',
    original_payout: null,
    payout_method: null,
    reconciliation_status: 'not_applicable',
    reversed_by: null,
    source_type: 'card',
    statement_descriptor: null,
    status: 'pending',
    trace_id: null,
    type: 'bank_account',
  };
}

/** A balance in one currency, all of it from card payments (the emulator's only source). */
export function balance(available: number, pending = 0, currency = 'usd'): Stripe.Balance {
  return {
    object: 'balance',
    available: [{ amount: available, currency, source_types: { card: available } }],
    connect_reserved: [{ amount: 0, currency }],
    livemode: false,
    pending: [{ amount: pending, currency, source_types: { card: pending } }],
  };
}
