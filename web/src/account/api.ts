// The portals' calls to the account API (docs/product.md#client-portal, #talent-portal): the
// `/me` routes beside `GET /me` itself, which the auth context reads. Every answer is checked
// against the shared contract (events/accounts.ts) before a page sees it. The schemas load with
// import() on the first call, so the schema library is not part of what a portal loads to start.
import type { ExcludableIndustry } from '../../../events/founding-values';
import type { LedgerPage, Likeness } from '../../../events/accounts';
import { apiClient, type ApiOptions } from '../api/client';

/** The page size the client portal asks for. */
const LEDGER_PAGE_SIZE = 20;

export type AccountApiOptions = ApiOptions & { getIdToken: () => Promise<string | undefined> };

export interface AccountApi {
  /** `GET /me/ledger`: one page, newest first; pass the previous page's nextCursor for the next. */
  ledger(options?: { limit?: number; cursor?: string }): Promise<LedgerPage>;
  /** `PATCH /me/likeness`: the industries the likeness may not be used for, from now on. */
  updateLikeness(excludedIndustries: readonly ExcludableIndustry[]): Promise<Likeness>;
}

const schemas = () => import('../../../events/accounts');

export function accountApi(options: AccountApiOptions): AccountApi {
  const api = apiClient(options);

  return {
    async ledger({ limit = LEDGER_PAGE_SIZE, cursor } = {}) {
      const query = new URLSearchParams({ limit: String(limit) });
      if (cursor) query.set('cursor', cursor);
      return api.read('GET', `/me/ledger?${query}`, () => schemas().then((s) => s.LedgerPage), {
        expect: (page) => (cursor && page.nextCursor === cursor ? 'nextCursor: the same page again' : undefined),
      });
    },
    updateLikeness: (excludedIndustries) => api.read('PATCH', '/me/likeness', () => schemas().then((s) => s.Likeness), { body: { excludedIndustries } }),
  };
}
