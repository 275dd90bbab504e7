// Payments (docs/product.md#payments, docs/payments.md): the values the pricing
// page, the portals, the console and the payments wing share. Plain values, no zod. Amounts are
// integer cents; credits are integers.
import { PLANS, type PlanId } from './plans';

/** Plans a client can subscribe to through Checkout (every paid plan). */
export const PAID_PLAN_IDS = PLANS.filter((p) => p.monthlyPriceCents > 0).map((p) => p.id) as Exclude<PlanId, 'free'>[];
export type PaidPlanId = Exclude<PlanId, 'free'>;

/** Credit pack sizes a paying client can buy at their plan's extra-credit price. */
export const CREDIT_PACK_SIZES = [50, 100, 250, 500] as const;
export type CreditPackSize = (typeof CREDIT_PACK_SIZES)[number];
/** How many packs of one size one checkout may buy. */
export const MAX_PACK_QUANTITY = 10;

/**
 * A subscription's state as the portal and the console show it (Stripe's statuses, grouped):
 * `active` (paid up, renews), `past_due` (a renewal failed; Stripe retries and the plan stays),
 * `canceling` (ends at the period's end), `ended`.
 */
export const SUBSCRIPTION_STATES = ['active', 'past_due', 'canceling', 'ended'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/** What a checkout the portal is waiting for has come to. */
export const CHECKOUT_STATES = ['open', 'confirming', 'applied', 'expired'] as const;

/** A Free client asking for extra credits (spec 9: "none (upgrade needed)"). */
export const UPGRADE_FIRST_MESSAGE = 'Extra credits are for paid plans. Choose Starter, Pro or Enterprise first, then buy packs at your plan\'s price.';
/** A subscriber choosing a plan through Checkout again: plan changes go through the billing portal. */
export const USE_PORTAL_MESSAGE = 'You already have a subscription. Switch plans or cancel in the billing portal.';
/** Billing portal for an account that never paid. */
export const NO_BILLING_ACCOUNT_MESSAGE = 'This account has no billing details yet. Choose a plan first.';
