// The portals' calls to the account API (docs/product.md#client-portal, #talent-portal): the
// `/me` routes beside `GET /me` itself, which the auth context reads. Every answer is checked
// against the shared contract (events/accounts.ts) before a page sees it. The schemas load with
// import() on the first call, so the schema library is not part of what a portal loads to start.
import type { ExcludableIndustry } from '../../../events/founding-values';
import type { PlanId } from '../../../events/plans';
import type { LedgerPage, Likeness, PlanRequest } from '../../../events/accounts';
import { ApiError } from '../api/http';

/** The page size the client portal asks for. */
const LEDGER_PAGE_SIZE = 20;

/** An answer that does not match the contract (a bug or a proxy's page, never the person's fault). */
export class UnexpectedAnswerError extends ApiError {
  override name = 'UnexpectedAnswerError';
}

/** The session is gone (HTTP 401): the person must sign in again. */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Sign in again to continue.';
const NETWORK_MESSAGE = 'We could not reach the server. Check your connection and try again.';

export interface AccountApiOptions {
  apiUrl: string;
  /** A current id token, or undefined when signed out (the auth context's getIdToken). */
  getIdToken: () => Promise<string | undefined>;
  /** For tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface AccountApi {
  /** `GET /me/ledger`: one page, newest first; pass the previous page's nextCursor for the next. */
  ledger(options?: { limit?: number; cursor?: string }): Promise<LedgerPage>;
  /** `POST /me/plan-requests`: asks an admin to move the account to another plan. */
  requestPlan(plan: PlanId): Promise<PlanRequest>;
  /** `PATCH /me/likeness`: the industries the likeness may not be used for, from now on. */
  updateLikeness(excludedIndustries: readonly ExcludableIndustry[]): Promise<Likeness>;
}

interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Checks an answer against its schema; names the first problem when it does not match. */
function check<T>(schema: Schema<T>, body: unknown, what: string, status: number): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'the answer';
  throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${what} (${where}: ${issue?.message ?? 'invalid'})`, status);
}

const schemas = () => import('../../../events/accounts');

export function accountApi({ apiUrl, getIdToken, fetch: fetchImpl = (...args) => fetch(...args) }: AccountApiOptions): AccountApi {
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; what: string }> {
    const what = `${method} ${path.split('?')[0]}`;
    const token = await getIdToken();
    if (!token) throw new ApiError(SESSION_ENDED_MESSAGE, 401);
    let res: Response;
    try {
      res = await fetchImpl(`${apiUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(NETWORK_MESSAGE, 0);
    }
    let json: unknown;
    let readable = true;
    try {
      json = await res.json();
    } catch {
      readable = false;
    }
    if (!res.ok) {
      if (res.status === 401) throw new ApiError(SESSION_ENDED_MESSAGE, 401);
      const error = json && typeof json === 'object' && 'error' in json && typeof json.error === 'string' ? json.error : undefined;
      throw new ApiError(error ?? `${what} failed (HTTP ${res.status}). Try again in a moment.`, res.status, error);
    }
    if (!readable) throw new UnexpectedAnswerError(`The server sent an unreadable answer to ${what}`, res.status);
    return { status: res.status, json, what };
  }

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
