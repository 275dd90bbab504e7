// The portals' calls to the account API (docs/product.md#client-portal, #talent-portal): the
// `/me` routes beside `GET /me` itself, which the auth context reads. Every answer is checked
// against the shared contract (events/accounts.ts) before a page sees it. The schemas load with
// import() on the first call, so the schema library is not part of what a portal loads to start.
import type { ExcludableIndustry } from '../../../events/founding-values';
import type { PlanId } from '../../../events/plans';
import type { LedgerPage, Likeness, PlanRequest } from '../../../events/accounts';
import { UnexpectedAnswerError, check, jsonCaller, type CallerOptions } from '../api/contract-call';

/** The page size the client portal asks for. */
const LEDGER_PAGE_SIZE = 20;

export type AccountApiOptions = CallerOptions & { getIdToken: () => Promise<string | undefined> };

export interface AccountApi {
  /** `GET /me/ledger`: one page, newest first; pass the previous page's nextCursor for the next. */
  ledger(options?: { limit?: number; cursor?: string }): Promise<LedgerPage>;
  /** `POST /me/plan-requests`: asks an admin to move the account to another plan. */
  requestPlan(plan: PlanId): Promise<PlanRequest>;
  /** `PATCH /me/likeness`: the industries the likeness may not be used for, from now on. */
  updateLikeness(excludedIndustries: readonly ExcludableIndustry[]): Promise<Likeness>;
}

const schemas = () => import('../../../events/accounts');

export function accountApi(options: AccountApiOptions): AccountApi {
  const send = jsonCaller(options);
  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => send(method, path, { body });

  return {
    async ledger({ limit = LEDGER_PAGE_SIZE, cursor } = {}) {
      const query = new URLSearchParams({ limit: String(limit) });
      if (cursor) query.set('cursor', cursor);
      const [{ LedgerPage }, answer] = await Promise.all([schemas(), call('GET', `/me/ledger?${query}`)]);
      const page = check(LedgerPage, answer.json, answer.what, answer.status);
      if (cursor && page.nextCursor === cursor) {
        throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${answer.what} (nextCursor: the same page again)`, answer.status);
      }
      return page;
    },
    async requestPlan(plan) {
      const [{ PlanRequest }, answer] = await Promise.all([schemas(), call('POST', '/me/plan-requests', { plan })]);
      return check(PlanRequest, answer.json, answer.what, answer.status);
    },
    async updateLikeness(excludedIndustries) {
      const [{ Likeness }, answer] = await Promise.all([schemas(), call('PATCH', '/me/likeness', { excludedIndustries })]);
      return check(Likeness, answer.json, answer.what, answer.status);
    },
  };
}
