import {
  CONSENT_VERSION,
  IdentityConsentRequest,
  IdentityRequest,
  ReplacementSubmitRequest,
  ReplacementUploadRequest,
  VerificationRequest,
  WithdrawConsentRequest,
} from '../../events/identity';
import type * as z from 'zod';
import {
  AdminAccountStateRequest,
  AdminGrantRequest,
  AdminSetPlanRequest,
  AdminUserQuery,
  LedgerQuery,
  UpdateLikenessRequest,
  UpdateMeRequest,
} from '../../events/accounts';
import { MessageUpdateRequest, TalentUpdateRequest } from '../../events/admin';
import { AdminRefundRequest, CreateCheckoutRequest } from '../../events/payments';
import { ContactRequest } from '../../events/contact';
import { DecisionRequest, EmailPreviewRequest, FoundingConfirmRequest, FoundingSignupRequest, FoundingUploadRequest } from '../../events/founding';
import { AdminGenerationQuery, GenerationConfig, LegacyStart, StartGenerationRequest } from '../../events/generations';
import { ExclusiveContractRequest, RemovalRequest } from '../../events/likeness';
import { AdminStatementQuery } from '../../events/royalties';
import { SignUpConflictRequest } from '../../events/sign-up';
import { ConversionRequest } from '../../events/site';
import { ConfirmWaitlistRequest, EarlySignupRequest } from '../../events/waitlist';
import { ManualPayoutRequest } from '../../events/payouts';
import { RejectLikenessModelRequest, RetrainRequest } from '../../events/training';
import { AppealRequest, LikenessCheckUrlRequest, ReportDecisionRequest, ReportRequest } from '../../events/reports';

/** Real ids the access matrix creates (or finds) before it calls routes with path parameters. */
export interface Fixtures {
  /** An application of the run's "accepted talent". */
  applicationId: string;
  /** A hidden talent of the run's own, safe to edit. */
  talentId: string;
  /** An active talent of the catalog, as the public sees it. */
  publicTalentId: string;
  /** A contact message of the run's own. */
  messageId: string;
  /** A client account of the run's own with nobody in the user pool: safe to change, disable and enable. */
  accountId: string;
  /** A delivered generation of client A's (owner routes). */
  generationId: string;
  /** The license of that generation's image. */
  licenseId: string;
  /** A closed statement of another talent's (maya-chen): the run's accepted talent may not open it. */
  otherStatementId: string;
}

/**
 * A valid request for one route of the API. `marker` is a run's unique lowercase tag: every
 * string an example sends carries it (emails are `{marker}@fuzz.example`), so whatever a
 * request stored or mailed can be traced to it.
 */
export interface RouteExample {
  /** Path parameters, filled with the fixtures' real ids. */
  params?: (f: Fixtures) => Record<string, string>;
  /** A valid JSON body. */
  body?: (marker: string) => Record<string, unknown>;
  /** Valid query parameters. */
  query?: (marker: string) => Record<string, string>;
  /** The body's or query's contract (events/): fuzzing sends only payloads it refuses. */
  schema?: z.ZodType;
  /** Request headers the route needs (an Idempotency-Key). */
  headers?: (marker: string) => Record<string, string>;
}

const exampleEmail = (marker: string) => `${marker}@fuzz.example`;
const UPLOAD_SESSION = 'AAAAAAAAAAAAAAAAAAAAAA';
/** The shape of a confirmation link's token (43 base64url characters), matching no real one. */
const confirmationToken = (marker: string) => `${marker}${'A'.repeat(43)}`.slice(0, 43);

const earlySignup: RouteExample = {
  schema: EarlySignupRequest,
  body: (m) => ({ email: exampleEmail(m), firstName: `Ada ${m}`, signupType: 'freelancer-creator', newsletter: false, terms: true }),
};
const foundingSignup: RouteExample = {
  schema: FoundingSignupRequest,
  body: (m) => ({
    firstName: `Ada ${m}`,
    lastName: `Lovelace ${m}`,
    email: exampleEmail(m),
    phone: `+351 ${m}`,
    location: `Lisbon ${m}`,
    experience: `Ten years of portraits ${m}`,
    interests: `Fashion ${m}`,
    portfolioUrl: `https://portfolio.example/${m}`,
    age: 30,
    excludeReligion: false,
    excludePolitics: true,
    excludeAlcohol: false,
    terms: true,
    uploadedFilesCount: 1,
    imagePaths: [`pending/${exampleEmail(m)}/${m}.jpg`],
    uploadSession: UPLOAD_SESSION,
    program: 'founding',
  }),
};

/**
 * One valid example per route, keyed by the template's route key (`METHOD /path`). The access
 * matrix needs one for every route with path parameters or a body; fuzzing for every public
 * route. A route missing here fails those checks, so a new route joins them with its example.
 */
export const ROUTE_EXAMPLES: Record<string, RouteExample> = {
  // Public
  'GET /talent': {},
  'GET /talent/{id}': { params: (f) => ({ id: f.publicTalentId }) },
  'GET /founding-spots': {},
  'POST /early-signup': earlySignup,
  'POST /functions/v1/early-signup': earlySignup,
  'POST /contact': {
    schema: ContactRequest,
    body: (m) => ({
      firstName: `Ada ${m}`,
      lastName: `Lovelace ${m}`,
      email: exampleEmail(m),
      subject: `Question ${m}`,
      message: `Hello from ${m}`,
      page: '/contact',
    }),
  },
  'POST /founding-uploads': {
    schema: FoundingUploadRequest,
    body: (m) => ({ email: exampleEmail(m), files: [{ name: `${m}.jpg`, type: 'image/jpeg', size: 123_456 }] }),
  },
  'POST /founding-talent-signup': foundingSignup,
  'POST /functions/v1/founding-talent-signup': foundingSignup,
  'POST /confirm-waitlist': { schema: ConfirmWaitlistRequest, body: (m) => ({ token: confirmationToken(m) }) },
  'POST /founding-confirm': { schema: FoundingConfirmRequest, body: (m) => ({ token: confirmationToken(m) }) },
  // The proof of person: a token of no application opens nothing (404).
  'POST /founding-identity': { schema: IdentityRequest, body: (m) => ({ token: confirmationToken(m) }) },
  'POST /founding-identity/consent': {
    schema: IdentityConsentRequest,
    body: (m) => ({ token: confirmationToken(m), faceConsent: false, typedName: `Ada ${m}`, consentVersion: CONSENT_VERSION }),
  },
  'POST /founding-identity/withdraw-consent': { schema: WithdrawConsentRequest, body: (m) => ({ token: confirmationToken(m) }) },
  'POST /founding-identity/verification': { schema: VerificationRequest, body: (m) => ({ token: confirmationToken(m) }) },
  'POST /founding-identity/replacement-uploads': { schema: ReplacementUploadRequest, body: (m) => ({ token: confirmationToken(m), files: [{ contentType: 'image/jpeg', size: 123_456 }] }) },
  'POST /founding-identity/replacements': { schema: ReplacementSubmitRequest, body: (m) => ({ token: confirmationToken(m), remove: [0], keys: [`applications/app_${m}/identity/replacements/1.jpg`] }) },
  'POST /events/conversion': { schema: ConversionRequest, body: () => ({ type: 'waitlist' }) },
  'POST /sign-up-conflicts': { schema: SignUpConflictRequest, body: (m) => ({ email: exampleEmail(m) }) },

  // Portal (signed-in clients and talent)
  'GET /me': {},
  'PATCH /me': { schema: UpdateMeRequest, body: (m) => ({ full_name: `Ada ${m}` }) },
  'GET /me/ledger': { schema: LedgerQuery, query: () => ({ limit: '10' }) },
  'PATCH /me/likeness': { schema: UpdateLikenessRequest, body: () => ({ excludedIndustries: ['politics'] }) },
  // The run's own accepted talent (fixtures): pausing, requesting and cancelling a removal touch only its likeness.
  'POST /me/likeness/pause': {},
  'POST /me/likeness/resume': {},
  'POST /me/likeness/removal': { schema: RemovalRequest, body: () => ({ acceptFoundingRateLoss: true }) },
  'DELETE /me/likeness/removal': {},
  // The likeness model of the run's accepted talent: they have none, so there is nothing to approve or reject (409).
  'GET /me/likeness-model': {},
  'POST /me/likeness-model/approve': {},
  'POST /me/likeness-model/reject': { schema: RejectLikenessModelRequest, body: (m) => ({ note: `Not me ${m}` }) },
  // Face data of the application the talent came from: the run's accepted talent gave no face
  // consent (409, nothing to withdraw); a talent without an application finds none (404).
  'GET /me/face-data': {},
  'POST /me/face-data/withdraw': {},
  // Royalties of the run's accepted talent; the statement named is another talent's (404 to them).
  'GET /me/earnings': {},
  'GET /me/exclusive-talent': {},
  'GET /me/statements': {},
  'GET /me/statements/{id}': { params: (f) => ({ id: f.otherStatementId }) },
  'GET /me/statements/{id}/csv': { params: (f) => ({ id: f.otherStatementId }) },
  // Generation: one image of a seeded talent, paid from the caller's starting credits.
  'POST /generations': {
    schema: StartGenerationRequest,
    body: (m) => ({ talentId: 'maya-chen', prompt: `A potter at her wheel ${m}`, style: 'Portrait', count: 1 }),
  },
  'POST /functions/v1/replicate-image-generation': {
    schema: LegacyStart,
    body: (m) => ({ prompt: `A potter at her wheel ${m}, Portrait style`, aspectRatio: '1:1', talentId: 'maya-chen', count: 1 }),
  },
  'GET /generations/{id}': { params: (f) => ({ id: f.generationId }) },
  // Replicate's signed webhook: unsigned, every caller is refused (401) before anything is read.
  'POST /webhooks/replicate': { query: () => ({ generation: '00000000-0000-4000-8000-000000000000' }) },
  // Replicate's signed training webhook: unsigned, every caller is refused (401) before anything is read.
  'POST /webhooks/replicate-training': { query: () => ({ training: 'trn_aaaaaaaaaaaaaaaaaaaa' }) },
  // Payments: a checkout at the Stripe emulator for the caller's own account; a session id that is
  // nobody's (404); the portal refused (409) until the caller has a customer. Stripe's signed
  // webhook: unsigned, every caller is refused (400) before anything is read.
  'POST /me/checkout-sessions': { schema: CreateCheckoutRequest, body: () => ({ kind: 'plan', plan: 'starter' }) },
  'GET /me/checkout-sessions/{id}': { params: () => ({ id: 'cs_test_matrixnobodys' }) },
  'POST /me/billing-portal-sessions': {},
  'GET /me/billing': {},
  // The connected account is the caller's own: no id is sent, and a body naming one is refused.
  'POST /me/payouts/onboarding': {},
  'GET /me/payouts': {},
  'GET /me/payouts/earnings.csv': { query: () => ({ year: '2026' }) },
  'POST /webhooks/stripe': { body: () => ({ id: 'evt_matrix', type: 'invoice.paid' }) },
  'POST /webhooks/stripe-connect': { body: () => ({ id: 'evt_matrix', type: 'payout.paid' }) },
  'POST /webhooks/stripe-identity': { body: () => ({ id: 'evt_matrix', type: 'identity.verification_session.verified' }) },
  'GET /licenses/{id}': { params: (f) => ({ id: f.licenseId }) },
  'GET /licenses/{id}/download': { params: (f) => ({ id: f.licenseId }) },
  // The fixture license has no file in the bucket: its thumbnail answers 404 naming that.
  'GET /licenses/{id}/thumbnail': { params: (f) => ({ id: f.licenseId }) },
  // Its body is an image file, not JSON: here none is sent (415, naming the types); its bad bodies
  // are sent by test/integration/generation/license-check.test.ts.
  'POST /licenses/{id}/check': { params: (f) => ({ id: f.licenseId }) },
  // Reports: the file routes take an image as the body (none here: 415); their bad bodies are sent
  // by test/integration/reports/reports.test.ts. A report names a URL only. The URL check's host is
  // in .invalid, which never resolves (400): nothing is fetched. The case named is nobody's (404).
  'POST /reports/files': {},
  'POST /reports': {
    schema: ReportRequest,
    body: (m) => ({
      category: 'other',
      explanation: `Matrix ${m}`,
      urls: [`https://images.example/${m}.jpg`],
      reporterRole: 'someone-else',
      name: `Ada ${m}`,
      email: exampleEmail(m),
      goodFaith: true,
      signature: `Ada ${m}`,
    }),
  },
  'POST /me/likeness-check': {},
  'POST /me/likeness-check/url': { schema: LikenessCheckUrlRequest, body: (m) => ({ url: `https://images.invalid/${m}.png` }) },
  'POST /reports/{reference}/appeal': { params: () => ({ reference: 'RPT-AAAAAA' }), schema: AppealRequest, body: (m) => ({ statement: `Matrix ${m}` }) },
  'GET /reports/{reference}/decision': { params: () => ({ reference: 'RPT-AAAAAA' }) },

  // Console
  'GET /admin/reports/{reference}': { params: () => ({ reference: 'RPT-AAAAAA' }) },
  'POST /admin/reports/{reference}/decision': { params: () => ({ reference: 'RPT-AAAAAA' }), schema: ReportDecisionRequest, body: (m) => ({ action: 'dismiss', reasons: `Matrix ${m}` }) },
  'GET /admin/talent/{id}': { params: (f) => ({ id: f.talentId }) },
  'GET /admin/talent/{id}/generation-config': { params: (f) => ({ id: f.talentId }) },
  // Exclusive contracts of the run's hidden talent: the example's account is no client (400), and there is none to end (404).
  'GET /admin/talent/{id}/exclusive-contract': { params: (f) => ({ id: f.talentId }) },
  'POST /admin/talent/{id}/exclusive-contract': {
    params: (f) => ({ id: f.talentId }),
    schema: ExclusiveContractRequest,
    body: (m) => ({ accountId: '00000000-0000-4000-8000-000000000000', brandName: `Brand ${m}`, until: '2099-01-01T00:00:00.000Z' }),
  },
  'DELETE /admin/talent/{id}/exclusive-contract': { params: (f) => ({ id: f.talentId }) },
  'PUT /admin/talent/{id}/generation-config': {
    params: (f) => ({ id: f.talentId }),
    schema: GenerationConfig,
    body: (m) => ({ model: `humanly-preview/${m}`, triggerWord: m }),
  },
  // Statements: the fixture statement of maya-chen's (marking it paid changes only its payout and audit).
  'GET /admin/statements': { schema: AdminStatementQuery, query: () => ({ talentId: 'maya-chen' }) },
  'GET /admin/statements/{id}': { params: (f) => ({ id: f.otherStatementId }) },
  'GET /admin/statements/csv': { query: () => ({ month: '2001-01' }) },
  'GET /admin/generations': { schema: AdminGenerationQuery, query: () => ({ status: 'succeeded', talentId: 'maya-chen' }) },
  'GET /admin/generations/{id}': { params: (f) => ({ id: f.generationId }) },
  'GET /admin/licenses/{id}/download': { params: (f) => ({ id: f.licenseId }) },
  'PATCH /admin/talent/{id}': { params: (f) => ({ id: f.talentId }), schema: TalentUpdateRequest, body: (m) => ({ tagline: `Edited ${m}` }) },
  'GET /admin/messages/{id}': { params: (f) => ({ id: f.messageId }) },
  'PATCH /admin/messages/{id}': { params: (f) => ({ id: f.messageId }), schema: MessageUpdateRequest, body: () => ({ handled: true }) },
  'GET /admin/applications/{id}': { params: (f) => ({ id: f.applicationId }) },
  'POST /admin/applications/{id}/decision': {
    params: (f) => ({ id: f.applicationId }),
    schema: DecisionRequest,
    body: (m) => ({ decision: 'reject', note: `Matrix ${m}` }),
  },
  'POST /admin/applications/{id}/email-preview': {
    params: (f) => ({ id: f.applicationId }),
    schema: EmailPreviewRequest,
    body: (m) => ({ decision: 'accept', messageToApplicant: `Welcome ${m}` }),
  },
  'POST /admin/applications/{id}/retry': { params: (f) => ({ id: f.applicationId }) },
  // An address of the run's own that nothing else uses: the erasure finds nothing to erase.
  'POST /admin/erasures': { body: (m) => ({ email: `erased.${m}@fuzz.example`, confirm: `erased.${m}@fuzz.example` }) },
  'GET /admin/users': { schema: AdminUserQuery, query: (m) => ({ q: m, role: 'client' }) },
  'GET /admin/users/{id}': { params: (f) => ({ id: f.accountId }) },
  'PATCH /admin/users/{id}': { params: (f) => ({ id: f.accountId }), schema: AdminSetPlanRequest, body: () => ({ plan: 'starter' }) },
  'POST /admin/users/{id}/credits': {
    params: (f) => ({ id: f.accountId }),
    schema: AdminGrantRequest,
    body: (m) => ({ credits: 5, category: 'goodwill', reason: `Matrix ${m}` }),
    headers: (m) => ({ 'idempotency-key': `matrix-${m}` }),
  },
  'POST /admin/users/{id}/disable': { params: (f) => ({ id: f.accountId }), schema: AdminAccountStateRequest, body: (m) => ({ reason: `Matrix ${m}` }) },
  'POST /admin/users/{id}/enable': { params: (f) => ({ id: f.accountId }), schema: AdminAccountStateRequest, body: () => ({}) },
  // Nothing is pending: the admin's answer is 409, which the matrix accepts from an allowed caller.
  'POST /admin/users/{id}/plan-request/decline': { params: (f) => ({ id: f.accountId }) },
  // The account has no payments: its billing is empty. A payment intent nobody paid: the refund answers 404 and refunds nothing.
  'GET /admin/users/{id}/billing': { params: (f) => ({ id: f.accountId }) },
  'POST /admin/payments/{id}/refund': { params: () => ({ id: 'pi_matrixunpaid' }), schema: AdminRefundRequest, body: (m) => ({ reason: `Matrix ${m}` }) },
  'GET /admin/revenue': {},
  // Payouts: a far-past month with no statements, and a statement id that does not exist (404),
  // so the matrix changes no one's payout.
  'GET /admin/payout-runs/{month}': { params: () => ({ month: '2010-01' }) },
  'POST /admin/payout-runs/{month}': { params: () => ({ month: '2010-01' }) },
  'GET /admin/payout-runs/{month}/csv': { params: () => ({ month: '2010-01' }) },
  'POST /admin/payouts/{statementId}/retry': { params: () => ({ statementId: '2010-01_matrix-nobody' }) },
  'POST /admin/payouts/{statementId}/manual': {
    params: () => ({ statementId: '2010-01_matrix-nobody' }),
    schema: ManualPayoutRequest,
    body: (m) => ({ reference: `Matrix ${m}`, reason: `Paid by bank wire ${m}` }),
  },
  'GET /admin/talent/{id}/payout-history': { params: (f) => ({ id: f.talentId }) },
  // Trainings of the run's hidden talent: it has no model and its catalog item names no application,
  // so a retrain starts nothing (409), and the training named is nobody's (409 without a model).
  'GET /admin/talent/{id}/trainings': { params: (f) => ({ id: f.talentId }) },
  'POST /admin/talent/{id}/trainings': { params: (f) => ({ id: f.talentId }), schema: RetrainRequest, body: (m) => ({ steps: 500, note: `Matrix ${m}` }) },
  'POST /admin/talent/{id}/trainings/{trainingId}/rollback': { params: (f) => ({ id: f.talentId, trainingId: 'trn_aaaaaaaaaaaaaaaaaaaa' }) },
};
