// The catalogue the twin's Stripe emulator starts with, from the plans of events/plans.ts: a
// product per paid plan with its monthly price, and one one-time price per plan for an extra
// credit (decision 042). Ids and lookup keys are fixed, so a stage's configuration can name the
// twin's prices as it names the live account's.
import { PLANS, type Plan } from '../../../../events/plans';
import type { CatalogProduct } from './products';

/** `price_humanly_starter_monthly`, `price_humanly_starter_credit`, ... */
export const planPriceId = (plan: string) => `price_humanly_${plan}_monthly`;
export const creditPriceId = (plan: string) => `price_humanly_${plan}_credit`;

export function planCatalog(plans: readonly Plan[] = PLANS): CatalogProduct[] {
  const paid = plans.filter((p) => p.monthlyPriceCents > 0);
  const credit: CatalogProduct = {
    id: 'prod_humanly_credit',
    name: 'Humanly extra credit',
    description: '1 credit = 1 image, beyond the plan\'s monthly allowance',
    metadata: { kind: 'credit' },
    prices: paid
      .filter((p) => p.extraCreditCents !== null)
      .map((p) => ({
        id: creditPriceId(p.id),
        unitAmount: p.extraCreditCents!,
        lookupKey: `humanly_${p.id}_credit`,
        nickname: `${p.name} extra credit`,
        metadata: { plan: p.id, kind: 'credit' },
      })),
  };
  return [
    ...paid.map((p) => ({
      id: `prod_humanly_${p.id}`,
      name: `Humanly ${p.name}`,
      description: `${p.monthlyCredits} credits every month. ${p.description}`,
      metadata: { plan: p.id, kind: 'plan' },
      prices: [
        {
          id: planPriceId(p.id),
          unitAmount: p.monthlyPriceCents,
          recurring: { interval: 'month' as const },
          lookupKey: `humanly_${p.id}_monthly`,
          nickname: `${p.name} monthly`,
          metadata: { plan: p.id, kind: 'plan', monthlyCredits: String(p.monthlyCredits) },
        },
      ],
    })),
    ...(credit.prices.length ? [credit] : []),
  ];
}
