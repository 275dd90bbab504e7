// The talent portal's calls to the payouts routes (docs/product.md#talent-portal): the payout
// account and each statement's payout, the link to Stripe's hosted onboarding, and a year's
// earnings as CSV. The connected account is the server's: no call names one. Answers are checked
// against the shared contract (events/payouts.ts, events/payments.ts), loaded with the first call.
import type { RedirectResponse } from '../../../events/payments';
import type { MyPayoutsResponse } from '../../../events/payouts';
import { apiClient, type ApiOptions } from '../api/client';

export type PayoutsApiOptions = ApiOptions & { getIdToken: () => Promise<string | undefined> };

export interface PayoutsApi {
  /** `GET /me/payouts`: the payout account's state, the minimum and every statement's payout. */
  payouts(): Promise<MyPayoutsResponse>;
  /** `POST /me/payouts/onboarding`: a fresh link to Stripe's hosted onboarding (creates the account the first time). */
  startOnboarding(): Promise<RedirectResponse>;
  /** `GET /me/payouts/earnings.csv?year=YYYY`: the year's statements and payouts as a file. */
  earningsCsv(year: number): Promise<{ filename: string; blob: Blob }>;
}

const payoutSchemas = () => import('../../../events/payouts');
const paymentSchemas = () => import('../../../events/payments');

/** The first year a statement can have, and the last the portal asks for: a year the server can answer. */
const FIRST_YEAR = 2020;

export function payoutsApi(options: PayoutsApiOptions): PayoutsApi {
  const api = apiClient(options);
  return {
    payouts: () => api.read('GET', '/me/payouts', () => payoutSchemas().then((s) => s.MyPayoutsResponse)),
    // No body: the account is the signed-in talent's, found by the server.
    startOnboarding: () => api.read('POST', '/me/payouts/onboarding', () => paymentSchemas().then((s) => s.RedirectResponse)),
    earningsCsv(year) {
      if (!Number.isInteger(year) || year < FIRST_YEAR || year > 9999) return Promise.reject(new RangeError(`year must be a year from ${FIRST_YEAR}, such as 2026; got ${year}`));
      return api.download(`/me/payouts/earnings.csv?year=${year}`, {
        accept: 'text/csv',
        filename: `humanly-earnings-${year}.csv`,
        failed: `The ${year} earnings could not be downloaded`,
      });
    },
  };
}
