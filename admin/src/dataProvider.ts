import { fetchUtils, HttpError, type DataProvider, type GetListParams, type RaRecord } from 'react-admin';
import { AdminStats } from '../../events/admin';
import type { ApplicationDecisionRecord, DecisionRequest, EmailPreview, EmailPreviewRequest, RetryAnswer } from '../../events/founding';
import type { AdminUserDetail, LedgerEntry } from '../../events/accounts';
import type { GrantCategory } from '../../events/account-values';
import type { ErasureResult } from '../../events/erasure';
import type { GenerationConfig, LicenseDownload } from '../../events/generations';
import type { ExclusiveContractRequest, ExclusiveContractResponse } from '../../events/likeness';
import type { PlanId } from '../../events/plans';
import { AdminBillingResponse, AdminRefundResponse, RevenueResponse, type AdminRefundRequest } from '../../events/payments';
import { AdminReport, type ReportDecisionRequest } from '../../events/reports';
import { PayoutHistory, PayoutMonth, PayoutRun, StatementPayout, type ManualPayoutRequest } from '../../events/payouts';
import { AdminTrainingsResponse, RetrainAnswer, type RetrainRequest } from '../../events/training';
import { getIdToken } from './authProvider';

export type { AdminStats };

/** What POST /admin/applications/{id}/decision answers (202). */
interface DecisionResult {
  id: string;
  status: string;
  /** The decision as recorded (who, when, the note); the bare word in the contract's first draft. */
  decision: ApplicationDecisionRecord | 'accept' | 'reject';
}

/** The standard react-admin methods plus the console's custom ones. */
export interface ConsoleDataProvider extends DataProvider {
  getStats(): Promise<AdminStats>;
  /**
   * Accepts or rejects an application. Pessimistic by design: the decision resumes the
   * application's workflow and cannot be undone, so the console waits for the API's answer.
   */
  decideApplication(id: string, request: DecisionRequest): Promise<{ data: DecisionResult }>;
  /** The email a decision would send the applicant, rendered by the API with the sending code. */
  previewDecisionEmail(id: string, request: EmailPreviewRequest): Promise<{ data: EmailPreview }>;
  /**
   * Resumes a failed application's workflow at the failed step. Pessimistic like a decision:
   * the console waits for the API to have started it.
   */
  retryApplication(id: string): Promise<{ data: RetryAnswer }>;
  /** The whole waitlist as CSV text (quoted, formula-guarded by the API). */
  exportWaitlistCsv(): Promise<string>;
  // Users: pessimistic like decisions; each answers the account as stored afterwards.
  /** Sets a client's plan (also how a pending plan request is approved). */
  setUserPlan(id: string, plan: PlanId): Promise<{ data: AdminUserDetail }>;
  /** Grants credits; `key` is generated once per grant dialog, so a repeated click grants once. */
  grantCredits(id: string, grant: { credits: number; category: GrantCategory; reason: string }, key: string): Promise<{ data: { entry: LedgerEntry; balance: number } }>;
  /** Disables (sign-in off, signed out everywhere) or enables an account, with an optional reason. */
  setUserDisabled(id: string, disabled: boolean, reason?: string): Promise<{ data: AdminUserDetail }>;
  declinePlanRequest(id: string): Promise<{ data: AdminUserDetail }>;
  // Generations.
  /** A talent's generation config; `null` when none is set (the API answers 404). */
  getGenerationConfig(talentId: string): Promise<{ data: GenerationConfig | null }>;
  /** Sets it; a refusal is an HttpError whose body names the fields (`{error, fields}`). */
  setGenerationConfig(talentId: string, config: GenerationConfig): Promise<{ data: GenerationConfig }>;
  /** A short-lived download of a delivered image, named after the talent and the license. */
  downloadLicense(licenseId: string): Promise<{ data: LicenseDownload }>;
  // Exclusive contracts (docs/royalties.md#exclusive-contracts): each answers the contract and history as they stand.
  getExclusiveContract(talentId: string): Promise<{ data: ExclusiveContractResponse }>;
  /** Records a contract; a refusal is an HttpError whose body names the fields (`{error, fields}`). */
  recordExclusiveContract(talentId: string, request: ExclusiveContractRequest): Promise<{ data: ExclusiveContractResponse }>;
  endExclusiveContract(talentId: string): Promise<{ data: ExclusiveContractResponse }>;
  // Statements.
  /** A month's payouts as CSV text (quoted, formula-guarded by the API). */
  exportPayoutsCsv(month: string): Promise<string>;
  // Billing (payments through Stripe).
  /** A client's subscription, payments (with refunds and credits taken back) and flag. */
  getUserBilling(id: string): Promise<{ data: AdminBillingResponse }>;
  /**
   * Refunds (part of) a payment through Stripe. Pessimistic: answers once Stripe took the refund;
   * the credits are taken back later, on Stripe's confirmation. `key` is made once per dialog.
   */
  refundPayment(paymentId: string, request: AdminRefundRequest, key: string): Promise<{ data: AdminRefundResponse }>;
  /** This month's revenue less refunds, recurring revenue and flagged accounts. */
  getRevenue(): Promise<{ data: RevenueResponse }>;
  // Payouts (talent paid through Stripe Connect).
  /** A month's payout run: each statement's payout, the totals and the reconciliation with Stripe's transfers. */
  getPayoutRun(month: string): Promise<{ data: PayoutRun }>;
  /** Runs the month's payouts now. Pessimistic and idempotent: a statement already paid is not paid again. */
  runPayouts(month: string): Promise<{ data: PayoutRun }>;
  /** Tries a failed payout again (once its cause is fixed); answers the payout as it stands. */
  retryPayout(statementId: string): Promise<{ data: StatementPayout }>;
  /** Records a payout made outside Stripe, with its reference and the reason. */
  markPayoutManual(statementId: string, request: ManualPayoutRequest): Promise<{ data: StatementPayout }>;
  /** A month's payouts as CSV text for accounting (quoted, formula-guarded by the API). */
  exportPayoutRunCsv(month: string): Promise<string>;
  /** A talent's payout history: account events, bank changes and payouts, oldest first. */
  getPayoutHistory(talentId: string): Promise<{ data: PayoutHistory }>;
  // Erasure.
  /**
   * Erases everything held under an address (docs/decisions/019-erasure.md); `confirm` is the
   * address typed again. A failure is an Error with the API's reason, or the status when it gave none.
   */
  eraseData(email: string, confirm: string): Promise<{ data: ErasureResult }>;
  // Misuse reports.
  /**
   * Decides a report with a written statement of reasons; answers the case as it then stands.
   * Pessimistic: revoking a license or suspending a client cannot be taken back from here. The
   * API's refusal (an appeal decided by the first decision's reviewer: 409) keeps its words.
   */
  decideReport(reference: string, request: ReportDecisionRequest): Promise<{ data: AdminReport }>;
  // Likeness model trainings (docs/training.md#routes). Pessimistic: each waits for the API's answer.
  /** A talent's model and every training, newest first. */
  getTrainings(talentId: string): Promise<{ data: AdminTrainingsResponse }>;
  /** Trains the talent's model again, with the steps given or the stage's (202). */
  retrainLikeness(talentId: string, request: RetrainRequest): Promise<{ data: RetrainAnswer }>;
  /** Puts an earlier version the talent approved back live; answers the list as it now stands. */
  rollbackTraining(talentId: string, trainingId: string): Promise<{ data: AdminTrainingsResponse }>;
}

/** A month as the payout routes take it ("2026-11"); anything else is refused before calling. */
function payoutMonth(month: string): string {
  const parsed = PayoutMonth.safeParse(month);
  if (!parsed.success) throw new Error(`${parsed.error.issues[0]?.message ?? 'month must be a month such as 2026-11'}; got "${month}"`);
  return parsed.data;
}

export type HttpClient = (path: string, options?: fetchUtils.Options & { whenSignedOut?: () => Error }) => ReturnType<typeof fetchUtils.fetchJson>;

/**
 * The console's one way of calling the API: `${apiUrl}/admin${path}` with the signed-in user's
 * Cognito id token, which the API's JWT authorizer checks (including the admin group). Errors
 * are react-admin HttpErrors carrying the status, so authProvider.checkError can react to 401
 * and 403; without a token, `whenSignedOut`'s error, else a 401.
 */
function createHttpClient(apiUrl: string): HttpClient {
  const base = `${apiUrl.replace(/\/+$/, '')}/admin`;
  return async (path, { whenSignedOut, ...options } = {}) => {
    let token: string | undefined;
    try {
      token = (await getIdToken())?.toString();
    } catch {
      token = undefined;
    }
    if (!token) throw whenSignedOut?.() ?? new HttpError('Not signed in', 401);
    const headers = new Headers(options.headers ?? { Accept: 'application/json' });
    headers.set('Authorization', `Bearer ${token}`);
    return fetchUtils.fetchJson(`${base}${path}`, { ...options, headers });
  };
}

/** Checks the shape of GET /admin/stats against the API's own schema. */
function parseAdminStats(raw: unknown): AdminStats {
  const parsed = AdminStats.safeParse(raw);
  if (!parsed.success) throw new Error('Unexpected response from /admin/stats');
  return parsed.data;
}

/** An answer checked against the API's own schema; a mismatch names the call. */
function parseAnswer<T>(schema: { safeParse(raw: unknown): { success: true; data: T } | { success: false } }, raw: unknown, what: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`Unexpected response from ${what}`);
  return parsed.data;
}

/** The console's resources and the fields each one's API sorts by. */
const RESOURCES: Record<string, { path: string; sorts: Record<string, string> }> = {
  applications: { path: '/applications', sorts: { submittedAt: 'submittedAt', lastName: 'name', firstName: 'name', name: 'name', status: 'status' } },
  waitlist: { path: '/waitlist', sorts: { position: 'position', id: 'position', signedUpAt: 'signedUpAt', email: 'email' } },
  talent: { path: '/talent', sorts: { name: 'name', generationCount: 'generationCount', status: 'status', id: 'id' } },
  messages: { path: '/messages', sorts: { createdAt: 'createdAt', subject: 'subject', status: 'status' } },
  users: { path: '/users', sorts: { createdAt: 'createdAt' } },
  generations: { path: '/generations', sorts: { createdAt: 'createdAt' } },
  // Ordered by the API (newest month first, then talent): no sort parameter.
  statements: { path: '/statements', sorts: {} },
  // Ordered by the API (by due time, overdue and intimate-image reports first): no sort parameter.
  reports: { path: '/reports', sorts: {} },
};

/** Fields reviewers may change, per resource; anything else in a form is not sent. */
const EDITABLE: Record<string, string[]> = {
  talent: ['tagline', 'bio', 'tags', 'featured', 'status'],
  messages: ['handled'],
};

function resourceOf(resource: string) {
  const r = RESOURCES[resource];
  if (!r) throw new Error(`Unknown resource ${resource}`);
  return r;
}

/** react-admin's list parameters as the admin API's query string. */
function listQuery(resource: string, params: GetListParams): string {
  const { sorts } = resourceOf(resource);
  const query = new URLSearchParams();
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
  query.set('offset', String((page - 1) * perPage));
  query.set('limit', String(perPage));
  const sort = params.sort?.field ? sorts[params.sort.field] : undefined;
  if (sort) {
    query.set('sort', sort);
    query.set('order', params.sort?.order === 'DESC' ? 'DESC' : 'ASC');
  }
  for (const [key, value] of Object.entries(params.filter ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    query.set(key, String(value));
  }
  return query.toString();
}

const byPath = (id: unknown) => encodeURIComponent(String(id));
const jsonHeaders = () => new Headers({ Accept: 'application/json', 'Content-Type': 'application/json' });
const unsupported = (what: string) => () => Promise.reject(new Error(`The review console cannot ${what}.`));

export function createDataProvider(apiUrl: string, httpClient: HttpClient = createHttpClient(apiUrl)): ConsoleDataProvider {
  const getOne = async (resource: string, id: unknown) => {
    const { json } = await httpClient(`${resourceOf(resource).path}/${byPath(id)}`);
    return json as RaRecord;
  };

  return {
    async getList(resource, params) {
      const { json } = await httpClient(`${resourceOf(resource).path}?${listQuery(resource, params)}`);
      return { data: json.items, total: json.total };
    },
    async getOne(resource, params) {
      return { data: (await getOne(resource, params.id)) as never };
    },
    async getMany(resource, params) {
      return { data: (await Promise.all(params.ids.map((id) => getOne(resource, id)))) as never[] };
    },
    async getManyReference(resource, params) {
      const { json } = await httpClient(
        `${resourceOf(resource).path}?${listQuery(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } })}`,
      );
      return { data: json.items, total: json.total };
    },
    async update(resource, params) {
      const editable = EDITABLE[resource];
      if (!editable) throw new Error(`The review console cannot edit ${resource}.`);
      const body = Object.fromEntries(editable.filter((k) => k in params.data).map((k) => [k, params.data[k]]));
      const { json } = await httpClient(`${resourceOf(resource).path}/${byPath(params.id)}`, {
        method: 'PATCH',
        body: JSON.stringify(body),
        headers: new Headers({ Accept: 'application/json', 'Content-Type': 'application/json' }),
      });
      return { data: json };
    },
    create: unsupported('create records'),
    updateMany: unsupported('edit several records at once'),
    delete: unsupported('delete records'),
    deleteMany: unsupported('delete records'),

    async getStats() {
      const { json } = await httpClient('/stats');
      return parseAdminStats(json);
    },

    async decideApplication(id, request) {
      const { json } = await httpClient(`/applications/${byPath(id)}/decision`, {
        method: 'POST',
        body: JSON.stringify(request),
        headers: new Headers({ Accept: 'application/json', 'Content-Type': 'application/json' }),
      });
      return { data: json as DecisionResult };
    },

    async previewDecisionEmail(id, request) {
      const { json } = await httpClient(`/applications/${byPath(id)}/email-preview`, {
        method: 'POST',
        body: JSON.stringify(request),
        headers: new Headers({ Accept: 'application/json', 'Content-Type': 'application/json' }),
      });
      return { data: json as EmailPreview };
    },

    async retryApplication(id) {
      const { json } = await httpClient(`/applications/${byPath(id)}/retry`, {
        method: 'POST',
        body: '{}',
        headers: new Headers({ Accept: 'application/json', 'Content-Type': 'application/json' }),
      });
      return { data: json as RetryAnswer };
    },

    async exportWaitlistCsv() {
      const { body } = await httpClient('/waitlist/export', { headers: new Headers({ Accept: 'text/csv' }) });
      return body;
    },

    async setUserPlan(id, plan) {
      const { json } = await httpClient(`/users/${byPath(id)}`, { method: 'PATCH', body: JSON.stringify({ plan }), headers: jsonHeaders() });
      return { data: json as AdminUserDetail };
    },

    async grantCredits(id, grant, key) {
      const headers = jsonHeaders();
      headers.set('Idempotency-Key', key);
      const { json } = await httpClient(`/users/${byPath(id)}/credits`, { method: 'POST', body: JSON.stringify(grant), headers });
      return { data: json as { entry: LedgerEntry; balance: number } };
    },

    async setUserDisabled(id, disabled, reason) {
      const { json } = await httpClient(`/users/${byPath(id)}/${disabled ? 'disable' : 'enable'}`, {
        method: 'POST',
        body: JSON.stringify(reason?.trim() ? { reason: reason.trim() } : {}),
        headers: jsonHeaders(),
      });
      return { data: json as AdminUserDetail };
    },

    async declinePlanRequest(id) {
      const { json } = await httpClient(`/users/${byPath(id)}/plan-request/decline`, { method: 'POST', body: '{}', headers: jsonHeaders() });
      return { data: json as AdminUserDetail };
    },

    async getGenerationConfig(talentId) {
      try {
        const { json } = await httpClient(`/talent/${byPath(talentId)}/generation-config`);
        return { data: json as GenerationConfig };
      } catch (e) {
        if (e instanceof HttpError && e.status === 404) return { data: null };
        throw e;
      }
    },

    async setGenerationConfig(talentId, config) {
      const { json } = await httpClient(`/talent/${byPath(talentId)}/generation-config`, { method: 'PUT', body: JSON.stringify(config), headers: jsonHeaders() });
      return { data: json as GenerationConfig };
    },

    async downloadLicense(licenseId) {
      const { json } = await httpClient(`/licenses/${byPath(licenseId)}/download`);
      return { data: json as LicenseDownload };
    },

    async getExclusiveContract(talentId) {
      const { json } = await httpClient(`/talent/${byPath(talentId)}/exclusive-contract`);
      return { data: json as ExclusiveContractResponse };
    },

    async recordExclusiveContract(talentId, request) {
      const { json } = await httpClient(`/talent/${byPath(talentId)}/exclusive-contract`, { method: 'POST', body: JSON.stringify(request), headers: jsonHeaders() });
      return { data: json as ExclusiveContractResponse };
    },

    async endExclusiveContract(talentId) {
      const { json } = await httpClient(`/talent/${byPath(talentId)}/exclusive-contract`, { method: 'DELETE' });
      return { data: json as ExclusiveContractResponse };
    },

    async exportPayoutsCsv(month) {
      const { body } = await httpClient(`/statements/csv?month=${encodeURIComponent(month)}`, { headers: new Headers({ Accept: 'text/csv' }) });
      return body;
    },

    async getUserBilling(id) {
      const { json } = await httpClient(`/users/${byPath(id)}/billing`);
      return { data: parseAnswer(AdminBillingResponse, json, `/admin/users/${id}/billing`) };
    },

    async refundPayment(paymentId, request, key) {
      const headers = jsonHeaders();
      headers.set('Idempotency-Key', key);
      const { json } = await httpClient(`/payments/${byPath(paymentId)}/refund`, { method: 'POST', body: JSON.stringify(request), headers });
      return { data: parseAnswer(AdminRefundResponse, json, 'the refund') };
    },

    async getRevenue() {
      const { json } = await httpClient('/revenue');
      return { data: parseAnswer(RevenueResponse, json, '/admin/revenue') };
    },

    async getPayoutRun(month) {
      const { json } = await httpClient(`/payout-runs/${payoutMonth(month)}`);
      return { data: parseAnswer(PayoutRun, json, `/admin/payout-runs/${month}`) };
    },

    async runPayouts(month) {
      const { json } = await httpClient(`/payout-runs/${payoutMonth(month)}`, { method: 'POST', body: '{}', headers: jsonHeaders() });
      return { data: parseAnswer(PayoutRun, json, 'the payout run') };
    },

    async retryPayout(statementId) {
      const { json } = await httpClient(`/payouts/${byPath(statementId)}/retry`, { method: 'POST', body: '{}', headers: jsonHeaders() });
      return { data: parseAnswer(StatementPayout, json, 'the retry') };
    },

    async markPayoutManual(statementId, request) {
      const { json } = await httpClient(`/payouts/${byPath(statementId)}/manual`, { method: 'POST', body: JSON.stringify(request), headers: jsonHeaders() });
      return { data: parseAnswer(StatementPayout, json, 'the payout paid outside Stripe') };
    },

    async exportPayoutRunCsv(month) {
      const { body } = await httpClient(`/payout-runs/${payoutMonth(month)}/csv`, { headers: new Headers({ Accept: 'text/csv' }) });
      return body;
    },

    async getPayoutHistory(talentId) {
      const { json } = await httpClient(`/talent/${byPath(talentId)}/payout-history`);
      return { data: parseAnswer(PayoutHistory, json, `/admin/talent/${talentId}/payout-history`) };
    },

    async getTrainings(talentId) {
      const { json } = await httpClient(`/talent/${byPath(talentId)}/trainings`);
      return { data: parseAnswer(AdminTrainingsResponse, json, `/admin/talent/${talentId}/trainings`) };
    },

    async retrainLikeness(talentId, request) {
      const { json } = await httpClient(`/talent/${byPath(talentId)}/trainings`, { method: 'POST', body: JSON.stringify(request), headers: jsonHeaders() });
      return { data: parseAnswer(RetrainAnswer, json, 'the retrain') };
    },

    async rollbackTraining(talentId, trainingId) {
      const { json } = await httpClient(`/talent/${byPath(talentId)}/trainings/${byPath(trainingId)}/rollback`, { method: 'POST', body: '{}', headers: jsonHeaders() });
      return { data: parseAnswer(AdminTrainingsResponse, json, 'the rollback') };
    },

    async decideReport(reference, request) {
      const { json } = await httpClient(`/reports/${byPath(reference)}/decision`, { method: 'POST', body: JSON.stringify(request), headers: jsonHeaders() });
      return { data: parseAnswer(AdminReport, json, 'the decision') };
    },

    async eraseData(email, confirm) {
      try {
        const { json } = await httpClient('/erasures', {
          method: 'POST',
          body: JSON.stringify({ email, confirm }),
          headers: jsonHeaders(),
          whenSignedOut: () => new Error('Your session has ended. Sign in again.'),
        });
        return { data: (json ?? {}) as ErasureResult };
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        throw new Error((e.body as { error?: string } | null)?.error ?? `The erasure failed (HTTP ${e.status}).`, { cause: e });
      }
    },
  };
}
