// Misuse reports and takedown (docs/product.md#reports-and-takedown, decision 058): the report
// form's files and reports, the talent's "Is this me?", the client's appeal, the console's queue
// and decisions, and the wing's domain events. Web, admin and functions all parse with these.
import * as z from 'zod';

import {
  MATCH_METHODS,
  REPORT_ACTIONS,
  REPORT_CATEGORIES,
  REPORT_LIMITS,
  REPORT_LOCATION_MESSAGE,
  REPORT_REFERENCE_MESSAGE,
  REPORT_REFERENCE_PATTERN,
  REMOVE_SAMPLE_URL_MESSAGE,
  REPORT_STATUSES,
  REPORTER_ROLES,
  URL_NOT_PUBLIC_MESSAGE,
} from './report-values';

const Iso = z.iso.datetime();

/** A required text field: trimmed, not blank, at most `max` characters, named in every message. */
const requiredText = (name: string, max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${name} is required` : `${name} must be a string`) })
    .trim()
    .min(1, { error: `${name} is required` })
    .max(max, { error: `${name} must be at most ${max} characters` });

const optionalText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .max(max, { error: `${name} must be at most ${max} characters` })
    .optional();

/**
 * Whether a host written in a URL is one the server must never reach: a name of the machine or
 * network itself, or a literal private, loopback, link-local, unspecified or metadata address.
 * The server also resolves a name and refuses it when any of its addresses is one of these
 * (functions/reports/url-safety.ts); this check only answers the obvious cases early, with a
 * message naming the field.
 */
export function isPlainlyPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
  if (!host.includes('.') && !host.includes(':')) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  if (host.includes(':')) {
    return host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:') || host.startsWith('fec');
  }
  return false;
}

/** A URL of a public http(s) host, at most the limit long; the message names the field. */
const PublicUrl = (name: string) =>
  requiredText(name, REPORT_LIMITS.url).superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be a URL such as https://example.com/image.jpg` });
      return;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || isPlainlyPrivateHost(url.hostname)) {
      ctx.addIssue({ code: 'custom', message: `${name} ${URL_NOT_PUBLIC_MESSAGE}` });
    }
  });

export const ReportReference = z
  .string({ error: REPORT_REFERENCE_MESSAGE })
  .regex(REPORT_REFERENCE_PATTERN, { error: REPORT_REFERENCE_MESSAGE });

/** What matching found for a reported file: one of the images we delivered, or not ours. */
export const ReportMatch = z.discriminatedUnion('verdict', [
  z.object({
    verdict: z.literal('ours'),
    licenseId: z.string(),
    talentName: z.string(),
    licensedAt: Iso,
    how: z.enum(MATCH_METHODS),
  }),
  z.object({ verdict: z.literal('not-ours') }),
]);
export type ReportMatch = z.infer<typeof ReportMatch>;

/** `POST /reports/files` (anyone; the raw image as the body) answers 201 with the stored file's id and its match. */
export const ReportFileUploaded = z.object({ fileId: z.uuid(), match: ReportMatch });
export type ReportFileUploaded = z.infer<typeof ReportFileUploaded>;

/** Body of `POST /reports` (anyone). */
export const ReportRequest = z
  .object({
    category: z.enum(REPORT_CATEGORIES, { error: `category must be one of ${REPORT_CATEGORIES.join(', ')}` }),
    /** Why the image is wrong (DSA: a substantiated explanation). */
    explanation: requiredText('explanation', REPORT_LIMITS.explanation),
    /** Where the image is (DSA: the exact electronic location); at least one URL or file. */
    urls: z
      .array(z.unknown(), { error: 'urls must be a list of URLs' })
      .max(REPORT_LIMITS.urls, { error: `urls may list at most ${REPORT_LIMITS.urls} addresses` })
      .default([])
      .pipe(z.array(PublicUrl('url'))),
    /** Files uploaded first through `POST /reports/files`. */
    fileIds: z
      .array(z.uuid({ error: 'fileIds must be ids that POST /reports/files answered' }), { error: 'fileIds must be a list of file ids' })
      .max(REPORT_LIMITS.files, { error: `fileIds may list at most ${REPORT_LIMITS.files} files` })
      .default([]),
    reporterRole: z.enum(REPORTER_ROLES, { error: `reporterRole must be one of ${REPORTER_ROLES.join(', ')}` }),
    name: requiredText('name', REPORT_LIMITS.name),
    email: requiredText('email', REPORT_LIMITS.email)
      .toLowerCase()
      .pipe(z.email({ error: 'email must be a valid email address' })),
    /** The good-faith statement (DSA Article 16(2)(d)). */
    goodFaith: z.literal(true, { error: 'goodFaith must be true: confirm the good-faith statement' }),
    /** The typed signature (TAKE IT DOWN Act: a physical or electronic signature). */
    signature: requiredText('signature', REPORT_LIMITS.signature),
    /** For `intimate`: the statement that the depicted person did not consent (TAKE IT DOWN Act). */
    consentDenied: z.boolean({ error: 'consentDenied must be true or false' }).optional(),
    /** For `intimate`, when the reporter is not the person shown: who is shown (enough to identify them). */
    depictedPerson: optionalText('depictedPerson', REPORT_LIMITS.depictedPerson),
  })
  .strict()
  .superRefine((report, ctx) => {
    if (report.urls.length === 0 && report.fileIds.length === 0) ctx.addIssue({ code: 'custom', path: ['urls'], message: REPORT_LOCATION_MESSAGE });
    if (report.category === 'intimate') {
      if (report.consentDenied !== true) {
        ctx.addIssue({ code: 'custom', path: ['consentDenied'], message: 'consentDenied must be true: an intimate-image report states that the person shown did not consent' });
      }
      if (report.reporterRole !== 'talent' && !report.depictedPerson) {
        ctx.addIssue({ code: 'custom', path: ['depictedPerson'], message: 'depictedPerson is required: name the person shown so we can identify them' });
      }
    }
  });
export type ReportRequest = z.infer<typeof ReportRequest>;
export type ReportRequestInput = z.input<typeof ReportRequest>;

/** `POST /reports` answers 201: the case's reference, when it is due, and what its files matched. */
export const ReportCreated = z.object({ reference: ReportReference, dueAt: Iso, match: ReportMatch });
export type ReportCreated = z.infer<typeof ReportCreated>;

/** What "Is this me?" found: a licensed image of ours (whose client, when, and whether of the caller), or not ours. */
export const LikenessCheckResult = z.discriminatedUnion('verdict', [
  z.object({
    verdict: z.literal('ours'),
    licenseId: z.string(),
    clientName: z.string(),
    licensedAt: Iso,
    how: z.enum(MATCH_METHODS),
    /** Whether the image was made with the caller's own likeness. */
    isYou: z.boolean(),
    /** When the license was revoked, if it was. */
    revokedAt: Iso.optional(),
  }),
  z.object({ verdict: z.literal('not-ours') }),
]);
export type LikenessCheckResult = z.infer<typeof LikenessCheckResult>;

/** Body of `POST /me/likeness-check/url` (talent): the address of an image file. */
export const LikenessCheckUrlRequest = z.object({ url: PublicUrl('url') }).strict();
export type LikenessCheckUrlRequest = z.infer<typeof LikenessCheckUrlRequest>;

/** Body of `POST /reports/{reference}/appeal` (the client of the revoked license). */
export const AppealRequest = z.object({ statement: requiredText('statement', REPORT_LIMITS.statement) }).strict();
export type AppealRequest = z.infer<typeof AppealRequest>;
export const AppealAccepted = z.object({ reference: ReportReference, status: z.enum(REPORT_STATUSES) });
export type AppealAccepted = z.infer<typeof AppealAccepted>;

/**
 * `GET /reports/{reference}/decision` (the client of the license the case is about): the latest
 * decision with the reviewer's statement of reasons, the public reason the license page gives, and
 * whether the client can still appeal it (`canAppeal`) or did (`appealedAt`; `status` says whether
 * the appeal waits or was decided).
 */
export const ClientReportDecision = z.object({
  reference: ReportReference,
  licenseId: z.string(),
  status: z.enum(REPORT_STATUSES),
  action: z.enum(REPORT_ACTIONS),
  decidedAt: Iso,
  publicReason: z.string(),
  reasons: z.string(),
  canAppeal: z.boolean(),
  appealedAt: Iso.optional(),
});
export type ClientReportDecision = z.infer<typeof ClientReportDecision>;

// ---- Console --------------------------------------------------------------------------------

/** `GET /admin/reports`: the queue, overdue first, then intimate, then by due time. */
export const AdminReportListQuery = z
  .object({
    status: z.enum(REPORT_STATUSES).optional(),
    offset: z.coerce.number().int().nonnegative().default(0),
    limit: z.coerce.number().int().positive().max(500).default(25),
  })
  .strict();
export type AdminReportListQuery = z.input<typeof AdminReportListQuery>;

export const AdminReportSummary = z.object({
  /** The reference, as react-admin's record id. */
  id: ReportReference,
  reference: ReportReference,
  category: z.enum(REPORT_CATEGORIES),
  status: z.enum(REPORT_STATUSES),
  receivedAt: Iso,
  dueAt: Iso,
  overdue: z.boolean(),
  /** The matched image is withheld while the case waits (an intimate report that matched). */
  hidden: z.boolean(),
  match: ReportMatch,
});
export type AdminReportSummary = z.infer<typeof AdminReportSummary>;
export const AdminReportList = z.object({ items: z.array(AdminReportSummary), total: z.number().int().nonnegative() });
export type AdminReportList = z.infer<typeof AdminReportList>;

/** `GET /admin/stats`: the cases waiting for a reviewer (open or appealed), how many are past their due time, and how many are intimate-image reports. */
export const ReportStats = z.object({
  waiting: z.number().int().nonnegative(),
  overdue: z.number().int().nonnegative(),
  intimateWaiting: z.number().int().nonnegative(),
});
export type ReportStats = z.infer<typeof ReportStats>;

export const ReportHistoryEntry = z.object({
  at: Iso,
  /** What happened, in a few words ("Received", "Image withheld", "Decided: revoke-license", "Appealed", "Overdue"). */
  what: z.string(),
  /** The reviewer, for decisions. */
  by: z.string().optional(),
  /** The statement of reasons or of the appeal. */
  detail: z.string().optional(),
});
export type ReportHistoryEntry = z.infer<typeof ReportHistoryEntry>;

export const ReportDecision = z.object({
  action: z.enum(REPORT_ACTIONS),
  reasons: z.string(),
  by: z.string(),
  at: Iso,
  /** For `remove-sample`: the sample removed from the talent's profile. */
  sampleUrl: z.string().optional(),
});
export type ReportDecision = z.infer<typeof ReportDecision>;

/** `GET /admin/reports/{reference}`: the case. */
export const AdminReport = AdminReportSummary.extend({
  explanation: z.string(),
  urls: z.array(z.string()),
  files: z.array(z.object({ fileId: z.string(), url: z.string(), expiresAt: Iso, size: z.number().int().nonnegative(), match: ReportMatch })),
  reporter: z.object({ role: z.enum(REPORTER_ROLES), name: z.string(), email: z.string(), signature: z.string() }),
  consentDenied: z.boolean().optional(),
  depictedPerson: z.string().optional(),
  /** The matched license with its client and talent, when a file matched. */
  license: z
    .object({
      licenseId: z.string(),
      talentId: z.string(),
      talentName: z.string(),
      clientName: z.string(),
      clientAccountId: z.string(),
      issuedAt: Iso,
      revokedAt: Iso.optional(),
    })
    .optional(),
  decisions: z.array(ReportDecision),
  appeal: z.object({ statement: z.string(), at: Iso }).optional(),
  history: z.array(ReportHistoryEntry),
});
export type AdminReport = z.infer<typeof AdminReport>;

/** Body of `POST /admin/reports/{reference}/decision`; answers the case. */
export const ReportDecisionRequest = z
  .object({
    action: z.enum(REPORT_ACTIONS, { error: `action must be one of ${REPORT_ACTIONS.join(', ')}` }),
    reasons: requiredText('reasons', REPORT_LIMITS.reasons),
    /** For `remove-sample`: which of the matched talent's samples to remove (its URL). */
    sampleUrl: optionalText('sampleUrl', REPORT_LIMITS.url),
  })
  .strict()
  .superRefine((request, ctx) => {
    if (request.action === 'remove-sample' && !request.sampleUrl) ctx.addIssue({ code: 'custom', path: ['sampleUrl'], message: REMOVE_SAMPLE_URL_MESSAGE });
  });
export type ReportDecisionRequest = z.infer<typeof ReportDecisionRequest>;

// ---- Events ---------------------------------------------------------------------------------
// They carry references and ids, never the reporter's data or the statements: the case in the
// reports table is where personal data lives.

/** `Report.Received` v1: a case was opened; `withheldLicenseId` names the image to hide at once (an intimate report that matched). */
export const ReportReceivedV1 = z.object({
  version: z.literal(1),
  reference: ReportReference,
  category: z.enum(REPORT_CATEGORIES),
  receivedAt: Iso,
  dueAt: Iso,
  licenseId: z.string().optional(),
  withheldLicenseId: z.string().optional(),
});
export type ReportReceivedV1 = z.infer<typeof ReportReceivedV1>;
export const REPORT_RECEIVED = 'Report.Received';

/** `Report.Decided` v1: a reviewer decided (the first time or after an appeal). */
export const ReportDecidedV1 = z.object({
  version: z.literal(1),
  reference: ReportReference,
  action: z.enum(REPORT_ACTIONS),
  decidedAt: Iso,
  /** The decision after an appeal. */
  afterAppeal: z.boolean(),
  licenseId: z.string().optional(),
  /** The reviewer who decided (the accounts wing's audit names them). */
  decidedBy: z.object({ sub: z.string(), email: z.string() }).optional(),
  /** For `suspend-client`: the account of the matched license's client, which the accounts wing disables. */
  clientAccountId: z.string().optional(),
  /** For `remove-sample`: the matched license's talent and the sample the catalog wing removes. */
  talentId: z.string().optional(),
  sampleUrl: z.string().optional(),
});
export type ReportDecidedV1 = z.infer<typeof ReportDecidedV1>;
export const REPORT_DECIDED = 'Report.Decided';

/**
 * `License.Revoked` v1: a reviewer revoked a license. The generation wing marks it revoked with
 * the date and the public reason and removes the client's download; `clientBreach` says whether
 * the revocation is for the client's breach (the talent's royalty is then taken back, decision 058).
 */
export const LicenseRevokedV1 = z.object({
  version: z.literal(1),
  licenseId: z.string(),
  reference: ReportReference,
  revokedAt: Iso,
  reason: z.string(),
  clientBreach: z.boolean(),
});
export type LicenseRevokedV1 = z.infer<typeof LicenseRevokedV1>;
export const LICENSE_REVOKED = 'License.Revoked';

/**
 * `License.Reinstated` v1: an appeal against a revocation was upheld (the case dismissed after
 * the appeal): the license is valid again, its download restored, and a royalty taken back for a
 * client's breach is given back to the talent.
 */
export const LicenseReinstatedV1 = z.object({
  version: z.literal(1),
  licenseId: z.string(),
  reference: ReportReference,
  reinstatedAt: Iso,
});
export type LicenseReinstatedV1 = z.infer<typeof LicenseReinstatedV1>;
export const LICENSE_REINSTATED = 'License.Reinstated';

/** `Report.Appealed` v1: the client appealed a decision; the case waits for a different reviewer. */
export const ReportAppealedV1 = z.object({ version: z.literal(1), reference: ReportReference, appealedAt: Iso });
export type ReportAppealedV1 = z.infer<typeof ReportAppealedV1>;
export const REPORT_APPEALED = 'Report.Appealed';
