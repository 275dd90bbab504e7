// Products, prices and the plans of recurring prices.
import type Stripe from 'stripe';
import { decimal } from './common';

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
