// The payments wing's Stripe settings: prices per plan and the webhook signing secret. The client
// itself (key, API version, the twin's address) is functions/shared/stripe.ts, shared with payouts.
import * as z from 'zod';
import { PAID_PLAN_IDS, type PaidPlanId } from '../../events/payment-values';
import { signingSecretFromEnv } from '../shared/stripe';

/** Stripe price ids per paid plan, from the stack (StageConfig.stripePrices): never from the browser. */
export type StripePrices = Record<PaidPlanId, { monthly: string; credit: string }>;

const PriceIds = z.object({ monthly: z.string().startsWith('price_'), credit: z.string().startsWith('price_') });
const PricesSchema = z.object(Object.fromEntries(PAID_PLAN_IDS.map((p) => [p, PriceIds])) as Record<PaidPlanId, typeof PriceIds>);

/** STRIPE_PRICES as the stack writes it; throws naming what is wrong. */
function parsePrices(text: string): StripePrices {
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

export { stripeFromEnv } from '../shared/stripe';

/** The webhook endpoint's signing secret from env STRIPE_WEBHOOK_SECRET_SECRET. */
export function webhookSecretFromEnv(): Promise<string> {
  return signingSecretFromEnv('STRIPE_WEBHOOK_SECRET_SECRET');
}
