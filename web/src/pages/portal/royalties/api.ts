// The talent portal's royalty calls (docs/royalties.md#talent-portal): this month's earnings, the
// statements, a statement's lines, its CSV and the payout details. Answers are checked against
// the shared contract (events/royalties.ts), whose schemas load with the first call.
import type { EarningsResponse, PayoutDetailsRequest, StatementDetail, StatementSummary } from '../../../../../events/royalties';
import { ApiError } from '../../../api/http';
import { SESSION_ENDED_MESSAGE, check, jsonCaller, type CallerOptions } from '../../../api/contract-call';

export interface RoyaltiesApi {
  earnings(): Promise<EarningsResponse>;
  statements(): Promise<StatementSummary[]>;
  statement(id: string): Promise<StatementDetail>;
  savePayoutDetails(details: PayoutDetailsRequest): Promise<PayoutDetailsRequest>;
  /** The statement's CSV as a file, with the name the server gives it. */
  statementCsv(id: string): Promise<{ filename: string; blob: Blob }>;
}

const schemas = () => import('../../../../../events/royalties');

export function royaltiesApi(options: CallerOptions & { getIdToken: () => Promise<string | undefined> }): RoyaltiesApi {
  const send = jsonCaller(options);
  return {
    async earnings() {
      const [{ EarningsResponse }, answer] = await Promise.all([schemas(), send('GET', '/me/earnings')]);
      return check(EarningsResponse, answer.json, answer.what, answer.status);
    },
    async statements() {
      const [{ StatementList }, answer] = await Promise.all([schemas(), send('GET', '/me/statements')]);
      return check(StatementList, answer.json, answer.what, answer.status).statements;
    },
    async statement(id) {
      const [{ StatementDetail }, answer] = await Promise.all([schemas(), send('GET', `/me/statements/${encodeURIComponent(id)}`)]);
      return check(StatementDetail, answer.json, answer.what, answer.status);
    },
    async savePayoutDetails(details) {
      const [{ EarningsResponse }, answer] = await Promise.all([schemas(), send('PUT', '/me/payout-details', { body: details })]);
      return check(EarningsResponse.shape.payoutDetails.unwrap(), answer.json, answer.what, answer.status);
    },
    async statementCsv(id) {
      const token = await options.getIdToken();
      if (!token) throw new ApiError(SESSION_ENDED_MESSAGE, 401);
      let res: Response;
      try {
        res = await fetch(`${options.apiUrl}/me/statements/${encodeURIComponent(id)}/csv`, { headers: { authorization: `Bearer ${token}`, accept: 'text/csv' } });
      } catch {
        throw new ApiError('We could not reach the server. Check your connection and try again.', 0);
      }
      if (res.status === 401) throw new ApiError(SESSION_ENDED_MESSAGE, 401);
      if (!res.ok) {
        const body = (await res.json().catch(() => undefined)) as { error?: unknown } | undefined;
        throw new ApiError(typeof body?.error === 'string' ? body.error : `The CSV could not be downloaded (HTTP ${res.status}). Try again.`, res.status);
      }
      const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `humanly-statement-${id.slice(0, 7)}.csv`;
      return { filename, blob: await res.blob() };
    },
  };
}
