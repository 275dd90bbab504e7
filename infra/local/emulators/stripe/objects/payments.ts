// Customers, their cards, PaymentIntents, charges, refunds and disputes.
import type Stripe from 'stripe';
import { list, newId, randomText } from './common';

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

/** A charge's outcome: authorized, or declined by the card's bank with its decline code. */
function outcomeOf(failure: { declineCode: string } | null): Stripe.Charge.Outcome {
  if (!failure) {
    return { advice_code: null, network_advice_code: null, network_decline_code: null, network_status: 'approved_by_network', reason: null, risk_level: 'normal', risk_score: 20, seller_message: 'Payment complete.', type: 'authorized' };
  }
  return {
    advice_code: 'try_again_later',
    network_advice_code: null,
    network_decline_code: null,
    network_status: 'declined_by_network',
    reason: failure.declineCode,
    risk_level: 'normal',
    risk_score: 20,
    seller_message: 'The bank did not return any further details with this decline.',
    type: 'issuer_declined',
  };
}

/** A card charge's `payment_method_details.card`. */
function cardDetailsOf(card: Stripe.PaymentMethod.Card, amount: number, paid: boolean): Stripe.Charge.PaymentMethodDetails.Card {
  return {
    amount_authorized: paid ? amount : null,
    authorization_code: paid ? String(100000 + (amount % 900000)) : null,
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
    overcapture: { maximum_amount_capturable: amount, status: 'unavailable' },
    regulated_status: 'unregulated',
    three_d_secure: null,
    transaction_link_id: null,
    wallet: null,
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
    outcome: outcomeOf(c.failure),
    paid,
    payment_intent: c.paymentIntent,
    payment_method: c.paymentMethod.id,
    payment_method_details: { type: 'card', card: cardDetailsOf(card, c.amount, paid) },
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
