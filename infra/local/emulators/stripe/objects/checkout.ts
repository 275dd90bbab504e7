// Checkout Sessions and their line items.
import type Stripe from 'stripe';
import { newId } from './common';

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
