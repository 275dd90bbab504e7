/**
 * Plans and credits (docs/product.md#pricing), shared by the pricing page, the portals, the
 * console and the functions. Plain values, no zod. Money is held in integer cents and credits as
 * integers; `formatUsd` is the one place that turns cents into text.
 */
export const PLAN_IDS = ['free', 'starter', 'pro', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** Price per month, in US cents. */
  monthlyPriceCents: number;
  /** Credits included every month. */
  monthlyCredits: number;
  /** Price of one credit beyond the monthly allowance, in cents; null when extra credits are not sold (upgrade needed). */
  extraCreditCents: number | null;
  mostPopular: boolean;
  description: string;
}

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    monthlyPriceCents: 0,
    monthlyCredits: 10,
    extraCreditCents: null,
    mostPopular: false,
    description: 'Try ethical AI images with no commitment.',
  },
  {
    id: 'starter',
    name: 'Starter',
    monthlyPriceCents: 3500,
    monthlyCredits: 80,
    extraCreditCents: 40,
    mostPopular: false,
    description: 'For creators publishing every week.',
  },
  {
    id: 'pro',
    name: 'Pro',
    monthlyPriceCents: 10900,
    monthlyCredits: 300,
    extraCreditCents: 35,
    mostPopular: true,
    description: 'For brands and teams with steady campaigns.',
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    monthlyPriceCents: 26900,
    monthlyCredits: 900,
    extraCreditCents: 30,
    mostPopular: false,
    description: 'For agencies producing at scale.',
  },
];

/** What one credit buys. */
export const CREDIT_DEFINITION = '1 credit = 1 image or 1 second of video';

/** Included in every plan. */
export const PLAN_INCLUDES: readonly { title: string; body: string }[] = [
  { title: 'Commercial-use licence', body: 'Publish what you make in ads, on products and across your channels.' },
  { title: 'Ethical AI', body: 'Every likeness is licensed with consent, and talent earn royalties on each image.' },
  { title: 'Platform access', body: 'The full Talent Library, every style and your generation history.' },
];

/** "$35", "$0", "$0.40": whole dollars without cents, otherwise two decimals. */
export function formatUsd(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`cents must be an integer, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100);
  const rest = abs % 100;
  return rest === 0 ? `${sign}$${dollars}` : `${sign}$${dollars}.${String(rest).padStart(2, '0')}`;
}

export function extraCreditText(plan: Plan): string {
  return plan.extraCreditCents === null
    ? 'No extra credits (upgrade needed)'
    : `${formatUsd(plan.extraCreditCents)} per extra credit`;
}

/** The plan with this id; throws on an unknown id (ids come from validated input or our own items). */
export function planById(id: PlanId): Plan {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new RangeError(`unknown plan ${id}`);
  return plan;
}

/** A new client account starts on this plan, with its credits granted once as the first ledger entry. */
export const STARTING_PLAN: PlanId = 'free';

/**
 * What one credit of a plan is worth, in micro-dollars (integer, rounded down): the plan's
 * monthly price over its monthly credits. A Free plan credit is valued at the lowest
 * extra-credit price, paid by us, so talent earn on every image (docs/product.md#royalties).
 */
export function creditValueMicros(planId: PlanId): number {
  const plan = planById(planId);
  if (plan.monthlyPriceCents === 0) {
    const lowest = Math.min(...PLANS.flatMap((p) => (p.extraCreditCents === null ? [] : [p.extraCreditCents])));
    return lowest * 10_000;
  }
  return Math.floor((plan.monthlyPriceCents * 10_000) / plan.monthlyCredits);
}
