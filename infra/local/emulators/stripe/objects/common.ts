// What every Stripe object of the emulator shares: the API version, ids as Stripe makes them,
// lists, decimals, and the webhook endpoint.
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
export const decimal = (value: number): Stripe.Decimal => String(value) as unknown as Stripe.Decimal;

export function list<T>(url: string, data: T[], hasMore = false): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url };
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
