// The Stripe client of the payments wing: the official `stripe` package, its secret key and the
// webhook signing secret from Secrets Manager (cached per container), its address from
// STRIPE_API_URL when the twin points it at the emulator (decision 042).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import * as z from 'zod';
import { PAID_PLAN_IDS, type PaidPlanId } from '../../events/payment-values';

/** Stripe price ids per paid plan, from the stack (StageConfig.stripePrices): never from the browser. */
export type StripePrices = Record<PaidPlanId, { monthly: string; credit: string }>;

const PriceIds = z.object({ monthly: z.string().startsWith('price_'), credit: z.string().startsWith('price_') });
const PricesSchema = z.object(Object.fromEntries(PAID_PLAN_IDS.map((p) => [p, PriceIds])) as Record<PaidPlanId, typeof PriceIds>);

/** STRIPE_PRICES as the stack writes it; throws naming what is wrong. */
export function parsePrices(text: string): StripePrices {
  return PricesSchema.parse(JSON.parse(text)) as StripePrices;
}

/** STRIPE_PRICES in a function's configuration (`loadConfig`): parsed once, failing fast naming what is wrong. */
export const StripePricesSetting = z.string().transform((text, ctx): StripePrices => {
  try {
    return parsePrices(text);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: `STRIPE_PRICES must name the monthly and credit prices of every paid plan: ${(err as Error).message}` });
    return z.NEVER;
  }
});

/** The paid plan a subscription price belongs to, or undefined for a price that is not ours. */
export function planOfPrice(prices: StripePrices, priceId: string | undefined): PaidPlanId | undefined {
  return PAID_PLAN_IDS.find((plan) => prices[plan].monthly === priceId);
}

/** The paid plan whose extra-credit price this is, or undefined. */
export function planOfCreditPrice(prices: StripePrices, priceId: string | undefined): PaidPlanId | undefined {
  return PAID_PLAN_IDS.find((plan) => prices[plan].credit === priceId);
}

const secrets = new Map<string, Promise<string>>();

/** A secret's string from Secrets Manager (the secret's ARN or name), cached per container. */
function secretValue(secretId: string, what: string): Promise<string> {
  let value = secrets.get(secretId);
  if (!value) {
    value = (async () => {
      const answer = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretId }));
      const text = answer.SecretString?.trim();
      if (!text) throw new Error(`The ${what} secret holds no string value`);
      return text;
    })();
    value.catch(() => secrets.delete(secretId));
    secrets.set(secretId, value);
  }
  return value;
}

/** Pinned so an upgrade of the package is a decision, not a surprise in the shapes we read. */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** A client for `key`; `apiUrl` (the twin's emulator) replaces api.stripe.com. */
export function stripeClient(key: string, apiUrl?: string): Stripe {
  const address = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(key, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Humanly' },
    ...(address ? { host: address.hostname, port: Number(address.port || (address.protocol === 'https:' ? 443 : 80)), protocol: address.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
}

let fromEnv: Promise<Stripe> | undefined;

/** The client from env STRIPE_SECRET_KEY_SECRET (the secret's ARN or name) and STRIPE_API_URL (optional). */
export function stripeFromEnv(): Promise<Stripe> {
  fromEnv ??= (async () => {
    const secretId = process.env.STRIPE_SECRET_KEY_SECRET;
    if (!secretId) throw new Error('Invalid function configuration: STRIPE_SECRET_KEY_SECRET is not set');
    return stripeClient(await secretValue(secretId, 'Stripe secret key'), process.env.STRIPE_API_URL || undefined);
  })();
  fromEnv.catch(() => (fromEnv = undefined));
  return fromEnv;
}

/** The webhook endpoint's signing secret from env STRIPE_WEBHOOK_SECRET_SECRET. */
export function webhookSecretFromEnv(): Promise<string> {
  const secretId = process.env.STRIPE_WEBHOOK_SECRET_SECRET;
  if (!secretId) return Promise.reject(new Error('Invalid function configuration: STRIPE_WEBHOOK_SECRET_SECRET is not set'));
  return secretValue(secretId, 'Stripe webhook signing');
}
