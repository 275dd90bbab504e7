// The talent portal's royalty calls (docs/royalties.md#talent-portal): this month's earnings, the
// statements, a statement's lines and its CSV (payouts have their own, web/src/payouts/api.ts).
// Answers are checked against the shared contract (events/royalties.ts), loaded with the first call.
import type { EarningsResponse, StatementDetail, StatementSummary } from '../../../../../events/royalties';
import { apiClient, type ApiOptions } from '../../../api/client';

export interface RoyaltiesApi {
  earnings(): Promise<EarningsResponse>;
  statements(): Promise<StatementSummary[]>;
  statement(id: string): Promise<StatementDetail>;
  /** The statement's CSV as a file, with the name the server gives it. */
  statementCsv(id: string): Promise<{ filename: string; blob: Blob }>;
}

const schemas = () => import('../../../../../events/royalties');

export function royaltiesApi(options: ApiOptions & { getIdToken: () => Promise<string | undefined> }): RoyaltiesApi {
  const api = apiClient(options);
  return {
    earnings: () => api.read('GET', '/me/earnings', () => schemas().then((s) => s.EarningsResponse)),
    async statements() {
      return (await api.read('GET', '/me/statements', () => schemas().then((s) => s.StatementList))).statements;
    },
    statement: (id) => api.read('GET', `/me/statements/${encodeURIComponent(id)}`, () => schemas().then((s) => s.StatementDetail)),
    statementCsv: (id) =>
      api.download(`/me/statements/${encodeURIComponent(id)}/csv`, {
        accept: 'text/csv',
        filename: `humanly-statement-${id.slice(0, 7)}.csv`,
        failed: 'The CSV could not be downloaded',
      }),
  };
}
