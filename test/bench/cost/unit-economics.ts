/**
 * Unit economics per credit (docs/cost.md#unit-economics): for every paid plan's monthly
 * allowance and every credit pack, what a client pays for one credit, Stripe's fee, what the image
 * costs us at the model's provider, the talent's royalty at each tier and for founding talent,
 * and what is left. Computed from events/plans.ts, events/payment-values.ts and
 * events/royalty-values.ts, so a price or a rate changed there changes the table.
 *
 *   npx tsx test/bench/cost/unit-economics.ts [--generation-cost-micros 25000]
 *   (npm run bench:cost prints it first)
 *
 * Every amount is an integer number of micro-dollars; fees are whole cents as Stripe charges them.
 */
import { CREDIT_PACK_SIZES } from '../../../events/payment-values';
import { PLANS, PROMOTIONAL_CREDIT_VALUE_MICROS } from '../../../events/plans';
import { BPS_PER_WHOLE, FOUNDING_RATE_BPS, STANDARD_TIERS } from '../../../events/royalty-values';
import { DEFAULT_GENERATION_COST_MICROS } from '../../../infra/lib/platform/stage-config';

/**
 * Stripe's fees, read on 2026-11-27 (US account, standard pricing). The card fee is the figure
 * quoted for stripe.com/pricing by third-party summaries (not read on Stripe's page itself); the
 * Billing fee was read on Stripe's own support page ("July 2024 changes to Stripe Billing":
 * 0.7% of Billing volume). International cards (+1.5%) and currency conversion (+1%) are not
 * counted; a dispute costs $15 more.
 */
const STRIPE_FEES = {
  cardBps: 290,
  cardFixedCents: 30,
  /** Stripe Billing, on subscription invoices only (a pack is a one-time Checkout payment). */
  billingBps: 70,
  readOn: '2026-11-27',
} as const;

const MICROS_PER_CENT = 10_000;

/** Stripe's fee on one charge of `cents`, in whole cents (rounded as Stripe rounds fees). */
function stripeFeeCents(cents: number, recurring: boolean): number {
  const bps = STRIPE_FEES.cardBps + (recurring ? STRIPE_FEES.billingBps : 0);
  return Math.round((cents * bps) / BPS_PER_WHOLE) + STRIPE_FEES.cardFixedCents;
}

/** The royalty rates a credit can earn: each standard tier, then founding talent. */
const ROYALTY_RATES: readonly { label: string; bps: number }[] = [
  ...STANDARD_TIERS.map((t) => ({ label: `${t.rateBps / 100}%`, bps: t.rateBps })),
  { label: `founding ${FOUNDING_RATE_BPS / 100}%`, bps: FOUNDING_RATE_BPS },
];

interface OfferEconomics {
  offer: string;
  /** What the client pays for the offer (one charge), in cents. */
  priceCents: number;
  credits: number;
  /** All per credit, micro-dollars (rounded down). */
  revenueMicros: number;
  stripeFeeMicros: number;
  generationMicros: number;
  /** Royalty and what is left, per rate of ROYALTY_RATES, in order. */
  byRate: { royaltyMicros: number; marginMicros: number }[];
}

function economicsOf(offer: string, priceCents: number, credits: number, recurring: boolean, generationMicros: number): OfferEconomics {
  // A credit's value for royalties is what was paid over the credits (decision 036): the price, before Stripe's fee.
  const revenueMicros = Math.floor((priceCents * MICROS_PER_CENT) / credits);
  const stripeFeeMicros = priceCents > 0 ? Math.floor((stripeFeeCents(priceCents, recurring) * MICROS_PER_CENT) / credits) : 0;
  // Promotional credits (the Free plan's) earn talent the cheapest paid credit's value, paid by us.
  const royaltyValueMicros = priceCents > 0 ? revenueMicros : PROMOTIONAL_CREDIT_VALUE_MICROS;
  return {
    offer,
    priceCents,
    credits,
    revenueMicros,
    stripeFeeMicros,
    generationMicros,
    byRate: ROYALTY_RATES.map((r) => {
      const royaltyMicros = Math.floor((royaltyValueMicros * r.bps) / BPS_PER_WHOLE);
      return { royaltyMicros, marginMicros: revenueMicros - stripeFeeMicros - generationMicros - royaltyMicros };
    }),
  };
}

/**
 * Every paid plan's monthly allowance, then its extra-credit packs at the smallest and largest
 * size, then the Free plan's monthly credits (what each image made with them costs us).
 */
function unitEconomics(generationMicros: number = DEFAULT_GENERATION_COST_MICROS): OfferEconomics[] {
  if (!Number.isSafeInteger(generationMicros) || generationMicros < 0) throw new RangeError(`generation cost must be whole micro-dollars, 0 or more (got ${generationMicros})`);
  const paid = PLANS.filter((p) => p.monthlyPriceCents > 0);
  const free = PLANS.filter((p) => p.monthlyPriceCents === 0);
  const packs = [Math.min(...CREDIT_PACK_SIZES), Math.max(...CREDIT_PACK_SIZES)];
  return [
    ...paid.map((p) => economicsOf(`${p.name} plan, a month`, p.monthlyPriceCents, p.monthlyCredits, true, generationMicros)),
    ...paid.flatMap((p) => (p.extraCreditCents === null ? [] : packs.map((n) => economicsOf(`${p.name} pack of ${n}`, n * p.extraCreditCents!, n, false, generationMicros)))),
    ...free.map((p) => economicsOf(`${p.name} plan, a month`, 0, p.monthlyCredits, false, generationMicros)),
  ];
}

/** "$0.4375", "-$0.0120": micro-dollars as dollars to a hundredth of a cent. */
const usd = (micros: number) => `${micros < 0 ? '-' : ''}$${(Math.abs(micros) / 1e6).toFixed(4)}`;
const cents = (c: number) => `$${(c / 100).toFixed(2)}`;
const pct = (part: number, whole: number) => (whole > 0 ? `${((part * 100) / whole).toFixed(1)}%` : 'given');

/** The table bench:cost prints (and docs/cost.md shows). */
export function unitEconomicsTable(generationMicros: number = DEFAULT_GENERATION_COST_MICROS): string {
  const rows = unitEconomics(generationMicros);
  const lines = [
    `Unit economics per credit (1 credit = 1 image; Stripe ${STRIPE_FEES.cardBps / 100}% + ${STRIPE_FEES.cardFixedCents}c a charge, plus Billing ${STRIPE_FEES.billingBps / 100}% on subscriptions; generation ${usd(generationMicros)} an image):`,
    `  ${'offer'.padEnd(26)} ${'price'.padStart(8)} ${'credits'.padStart(7)} ${'per credit'.padStart(10)} ${'Stripe'.padStart(8)} ${'image'.padStart(8)}   ${ROYALTY_RATES.map((r) => `royalty/margin at ${r.label}`.padEnd(27)).join(' ')}`,
  ];
  for (const r of rows) {
    const rates = r.byRate.map((b) => `${usd(b.royaltyMicros)} / ${usd(b.marginMicros)} (${pct(b.marginMicros, r.revenueMicros)})`.padEnd(27)).join(' ');
    lines.push(`  ${r.offer.padEnd(26)} ${cents(r.priceCents).padStart(8)} ${String(r.credits).padStart(7)} ${usd(r.revenueMicros).padStart(10)} ${usd(r.stripeFeeMicros).padStart(8)} ${usd(r.generationMicros).padStart(8)}   ${rates}`.trimEnd());
  }
  lines.push('  (every credit used for one image; credits that expire unused cost neither the image nor a royalty;');
  lines.push(`   Free credits earn talent the cheapest paid credit's value, ${usd(PROMOTIONAL_CREDIT_VALUE_MICROS)}, within a monthly cap per talent)`);
  return lines.join('\n');
}

function generationArg(): number {
  const i = process.argv.indexOf('--generation-cost-micros');
  if (i < 0) return DEFAULT_GENERATION_COST_MICROS;
  const value = Number(process.argv[i + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--generation-cost-micros must be a whole number of micro-dollars, not ${process.argv[i + 1]}`);
  return value;
}

if (process.argv[1]?.endsWith('unit-economics.ts')) console.log(unitEconomicsTable(generationArg()));
