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

/**
 * How changing plans is billed, in the words of the pricing page and the client portal
 * (docs/product.md#changing-plans, docs/payments.md "Allowances"): an upgrade's credits follow what
 * Stripe actually charged, and a charge too small to collect brings none.
 */
export const PLAN_CHANGE_RULE =
  'Upgrade any time: you pay only the difference for the rest of your billing period, and get as many of the new plan’s additional credits as that payment buys at the new plan’s price per credit. If the difference is too small for Stripe to charge, no credits are added. Downgrades start at your next renewal.';

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
 * What one credit of each paid offer is worth, in micro-dollars (integers, rounded down): every
 * paid plan's monthly price over its monthly credits, and every extra-credit price.
 */
function paidCreditValuesMicros(): number[] {
  return PLANS.flatMap((p) => [
    ...(p.monthlyPriceCents > 0 ? [Math.floor((p.monthlyPriceCents * 10_000) / p.monthlyCredits)] : []),
    ...(p.extraCreditCents === null ? [] : [p.extraCreditCents * 10_000]),
  ]);
}

/**
 * What one promotional credit (the Free plan's, an admin's grant) is worth, in micro-dollars: the
 * cheapest paid credit, so a promotional credit never earns a talent more than any paid one
 * (docs/product.md#royalties, decision 036). Today Enterprise's monthly credit, 298,888.
 */
export const PROMOTIONAL_CREDIT_VALUE_MICROS = Math.min(...paidCreditValuesMicros());

/**
 * What one credit of a plan is worth, in micro-dollars (integer, rounded down): the plan's
 * monthly price over its monthly credits. A Free plan credit is promotional, valued at
 * PROMOTIONAL_CREDIT_VALUE_MICROS, paid by us, so talent earn on every image.
 */
export function creditValueMicros(planId: PlanId): number {
  const plan = planById(planId);
  if (plan.monthlyPriceCents === 0) return PROMOTIONAL_CREDIT_VALUE_MICROS;
  return Math.floor((plan.monthlyPriceCents * 10_000) / plan.monthlyCredits);
}

/**
 * Kinds of credit lots (decision 036): `paid` credits were bought (a plan's allowance, a pack);
 * `promotional` credits were given (the Free plan's, an admin's grant) and are valued at
 * PROMOTIONAL_CREDIT_VALUE_MICROS at most.
 */
export const CREDIT_LOT_KINDS = ['paid', 'promotional'] as const;
type CreditLotKind = (typeof CREDIT_LOT_KINDS)[number];

/**
 * What every credit of one grant is worth (a lot, docs/product.md#credit-ledger): its value in
 * micro-dollars (what the client paid over the credits; the promotional value for gifts), its
 * kind, and why it earns talent nothing, if it does not (an admin's grant for testing). A lot may
 * name where it came from (`source`, e.g. `checkout:cs_123` or `invoice:in_123`: a refund takes
 * back the unspent credits of that source, and lots of different sources never merge) and when it
 * stops being spendable (`expiresAt`, an ISO time: plan credits expire at the end of the following
 * billing period, bought credits never; decision 043).
 */
export interface CreditLot {
  valueMicros: number;
  kind: CreditLotKind;
  noRoyalty?: 'testing-grant';
  source?: string;
  expiresAt?: string;
}

/**
 * When plan credits granted for a month stop being spendable (decision 043): the last millisecond
 * of the following month, UTC. Credits for January 2027 expire at 2027-02-28T23:59:59.999Z.
 */
export function planCreditsExpireAt(grantedFor: Date): string {
  return new Date(Date.UTC(grantedFor.getUTCFullYear(), grantedFor.getUTCMonth() + 2, 1) - 1).toISOString();
}

/** A promotional lot: the Free plan's credits and an admin's grant. */
export const PROMOTIONAL_LOT: CreditLot = { valueMicros: PROMOTIONAL_CREDIT_VALUE_MICROS, kind: 'promotional' };

/** A lot of credits given for testing: worth nothing, earning talent nothing. */
export const TESTING_LOT: CreditLot = { valueMicros: 0, kind: 'promotional', noRoyalty: 'testing-grant' };

/**
 * The lot of a plan's own credits: the Free plan's are promotional; a paid plan's allowance is
 * paid, at the plan's credit value. Also the rule for a balance stored before lots existed: its
 * credits are one lot of the account's plan (decision 036).
 */
export function planLot(planId: PlanId): CreditLot {
  return planById(planId).monthlyPriceCents === 0 ? PROMOTIONAL_LOT : { valueMicros: creditValueMicros(planId), kind: 'paid' };
}
