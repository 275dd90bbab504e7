/**
 * Plain values of the reports contract (docs/product.md#reports-and-takedown, decision 058), free
 * of zod so the site and the console can import them without the validation library: the
 * categories, roles and actions, the limits, the deadlines, every message the API answers with,
 * and the takedown notice a talent can send to another site.
 */

/** What is wrong with the image, as the report form asks it. */
export const REPORT_CATEGORIES = [
  'likeness-without-license',
  'outside-license',
  'excluded-industry',
  'intimate',
  'defamatory',
  'copyright',
  'other',
] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

export const REPORT_CATEGORY_LABELS: Record<ReportCategory, string> = {
  'likeness-without-license': "A person's likeness used without a license",
  'outside-license': 'A licensed image used outside its license',
  'excluded-industry': 'Used in an industry the person excluded',
  intimate: 'Intimate or sexual content',
  defamatory: 'Defamatory or deceptive use',
  copyright: 'A copyright claim',
  other: 'Something else',
};

/**
 * What a revoked license's page says after "Revoked on <date>:" for each category: a fixed public
 * text, never the reviewer's statement of reasons (that goes to the client alone).
 */
export const REVOCATION_REASONS: Record<ReportCategory, string> = {
  'likeness-without-license': "the image used a person's likeness without their license",
  'outside-license': 'the image was used outside its license',
  'excluded-industry': 'the image was used in an industry the talent excluded',
  intimate: 'the image was used as intimate content without consent',
  defamatory: 'the image was used in a defamatory or deceptive way',
  copyright: 'a copyright claim against the image was upheld',
  other: 'a report about the image was upheld',
};

/** Who sends the report. */
export const REPORTER_ROLES = ['talent', 'representative', 'someone-else'] as const;
export type ReporterRole = (typeof REPORTER_ROLES)[number];
export const REPORTER_ROLE_LABELS: Record<ReporterRole, string> = {
  talent: 'I am the person shown',
  representative: 'I represent the person shown',
  'someone-else': 'Someone else',
};

/** Hours a reviewer has to decide: 48 for intimate images (TAKE IT DOWN Act), 7 days otherwise. */
export const REPORT_DUE_HOURS: Record<ReportCategory, number> = {
  'likeness-without-license': 7 * 24,
  'outside-license': 7 * 24,
  'excluded-industry': 7 * 24,
  intimate: 48,
  defamatory: 7 * 24,
  copyright: 7 * 24,
  other: 7 * 24,
};
/** When a report received at `receivedAt` is due. */
export const reportDueAt = (category: ReportCategory, receivedAt: Date): Date => new Date(receivedAt.getTime() + REPORT_DUE_HOURS[category] * 3600_000);

/**
 * Where a case stands: `open` waits for a reviewer, `decided` has a decision, `appealed` was
 * reopened by the client's appeal and waits for a different reviewer, `closed` was decided again
 * after an appeal. `overdue` is a flag beside the status, set by the scheduled check.
 */
export const REPORT_STATUSES = ['open', 'decided', 'appealed', 'closed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = {
  open: 'Waiting for review',
  decided: 'Decided',
  appealed: 'Appealed: waiting for a second reviewer',
  closed: 'Closed after appeal',
};

/** What a reviewer may do with a case; every action needs a written statement of reasons. */
export const REPORT_ACTIONS = ['dismiss', 'revoke-license', 'suspend-client', 'remove-sample'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
export const REPORT_ACTION_LABELS: Record<ReportAction, string> = {
  dismiss: 'Dismiss the report',
  'revoke-license': 'Revoke the license',
  'suspend-client': 'Suspend the client',
  'remove-sample': "Remove the talent's sample",
};

/** How a reported file was found to be one of ours. */
export const MATCH_METHODS = ['metadata', 'exact-pixels', 'perceptual'] as const;
export type MatchMethod = (typeof MATCH_METHODS)[number];
export const MATCH_METHOD_LABELS: Record<MatchMethod, string> = {
  metadata: 'its metadata names the license',
  'exact-pixels': 'its pixels are exactly those we delivered',
  perceptual: 'it looks like an image we delivered (re-encoded, resized or cropped)',
};
export const NOT_OURS_MESSAGE = 'Not made on Humanly';

/** A case's reference: `RPT-` and six letters or digits (no 0/O, 1/I). */
export const REPORT_REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const REPORT_REFERENCE_PATTERN = /^RPT-[A-HJ-NP-Z2-9]{6}$/;
export const REPORT_REFERENCE_MESSAGE = 'reference must be a report reference such as RPT-7K2M9Q';

/** Field limits, checked in the browser and on the server. */
export const REPORT_LIMITS = {
  explanation: 5000,
  name: 100,
  email: 254,
  signature: 100,
  url: 2000,
  urls: 10,
  files: 5,
  depictedPerson: 200,
  statement: 5000,
  reasons: 5000,
} as const;

/** The largest reported file, in bytes (the body travels through API Gateway as the license check's does). */
export const REPORT_FILE_MAX_BYTES = 4 * 1024 * 1024;
/** The types a reported file may be sent as (the bytes decide the format). */
export const REPORT_FILE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'] as const;
/** The largest image the server fetches from a URL for "Is this me?", and how long it waits for it. */
export const URL_FETCH_MAX_BYTES = 4 * 1024 * 1024;
export const URL_FETCH_TIMEOUT_MS = 5000;

/** Rate limits (docs/product.md#reports-and-takedown). */
export const REPORT_FILES_PER_NETWORK_PER_HOUR = 30;
export const REPORTS_PER_NETWORK_PER_HOUR = 10;
export const REPORTS_PER_EMAIL_PER_DAY = 5;
export const LIKENESS_CHECKS_PER_ACCOUNT_PER_HOUR = 30;

export const REPORT_FILE_EMPTY_MESSAGE = 'Send the image file as the request body.';
export const REPORT_FILE_TOO_LARGE_MESSAGE = `This file is too large: the limit is ${REPORT_FILE_MAX_BYTES / 1024 / 1024} MB. Send a smaller copy or the URL where the image is.`;
export const REPORT_FILE_TYPE_MESSAGE = `Send the file as ${REPORT_FILE_TYPES.join(', ')} (Content-Type).`;
export const REPORT_FILE_NOT_AN_IMAGE_MESSAGE = 'This file is not an image we can read: send a PNG, JPEG or WebP file.';
export const REPORT_FILES_LIMIT_MESSAGE = `This network has sent ${REPORT_FILES_PER_NETWORK_PER_HOUR} files in the last hour, the limit. Please try again later.`;
export const REPORTS_NETWORK_LIMIT_MESSAGE = `This network has sent ${REPORTS_PER_NETWORK_PER_HOUR} reports in the last hour, the limit. Please try again later.`;
export const REPORTS_EMAIL_LIMIT_MESSAGE = `This email address has sent ${REPORTS_PER_EMAIL_PER_DAY} reports today, the limit. We will review those first; please try again tomorrow.`;
export const LIKENESS_CHECKS_LIMIT_MESSAGE = `You have checked ${LIKENESS_CHECKS_PER_ACCOUNT_PER_HOUR} images in the last hour, the limit. Please try again later.`;
export const REPORT_LOCATION_MESSAGE = 'Give at least one URL where the image is, or upload the file.';
export const REPORT_FILE_UNKNOWN_MESSAGE = 'A file of this report was not uploaded here, or has expired: upload it again.';
export const URL_NOT_PUBLIC_MESSAGE = 'must be a public http or https address (not a private, local or internal one)';
export const URL_FETCH_FAILED_MESSAGE = 'The image at this URL could not be fetched. Download it and upload the file instead.';
export const URL_NOT_AN_IMAGE_MESSAGE = 'The URL does not point to an image file we can read (PNG, JPEG or WebP). Open the image itself and copy its address.';
export const REPORT_NOT_FOUND_MESSAGE = 'Report not found';
export const SAME_REVIEWER_MESSAGE = 'This case was appealed: a different reviewer than the one who made the first decision must decide it.';
export const ALREADY_DECIDED_MESSAGE = 'This case is already decided. It can be decided again only after an appeal.';
export const APPEAL_NOT_ALLOWED_MESSAGE = 'Only the client of the revoked license can appeal this decision.';
export const APPEAL_NOT_OPEN_MESSAGE = 'This decision cannot be appealed (it was not a decision against your license, or it was already appealed).';
export const REMOVE_SAMPLE_URL_MESSAGE = "sampleUrl is required: name which of the talent's samples to remove";
export const SAMPLE_NOT_FOUND_MESSAGE = "sampleUrl must be one of the matched talent's current samples";
/** The reason a suspension writes in the client account's audit. */
export const suspensionReason = (reference: string): string => `Suspended by the decision on report ${reference}`;
export const NO_LICENSE_MESSAGE = 'This report matches no license of ours, so there is no license to revoke, client to suspend or sample to remove.';

/** The statements the reporter makes (DSA Article 16; TAKE IT DOWN Act for intimate images). */
export const GOOD_FAITH_STATEMENT =
  'I state in good faith that the information in this report is accurate and complete to the best of my knowledge.';
export const NOT_CONSENSUAL_STATEMENT =
  'I state in good faith that the intimate image shows an identifiable person who did not consent to it being made or published.';

/** The site's pages of the feature. */
export const REPORT_PATH = '/report';
export const appealPath = (reference: string) => `/report/appeal/${reference}`;

/** What a revoked license says, e.g. "Revoked on 29 November 2026: the image was used outside its license". */
export const revokedText = (revokedAt: string, reason: string): string =>
  `Revoked on ${new Date(revokedAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}: ${reason}`;

export interface TakedownNoticeInput {
  /** The talent's name, as it signs the notice. */
  talentName: string;
  /** Where the image is. */
  url: string;
  /** The day the notice is written (ISO date or datetime). */
  date: string;
  /** Whether the image is an intimate depiction (adds the TAKE IT DOWN Act paragraph). */
  intimate?: boolean;
}

/**
 * The takedown notice a talent sends to the site that shows the image (plain text): the notice of
 * the EU Digital Services Act, Article 16, and, for an intimate image, the removal request of the
 * US TAKE IT DOWN Act (removal within 48 hours of a valid request).
 */
export function takedownNotice({ talentName, url, date, intimate = false }: TakedownNoticeInput): string {
  const day = new Date(date).toISOString().slice(0, 10);
  const lines = [
    `Notice of illegal content and request for removal`,
    ``,
    `Date: ${day}`,
    `From: ${talentName}`,
    `Location of the content: ${url}`,
    ``,
    `I am ${talentName}, the person whose likeness appears in the image at the location above. I did not`,
    `license this use of my likeness, and I have not consented to it. The image was not made or licensed`,
    `through Humanly for this use.`,
    ``,
    `Under Article 16 of the EU Digital Services Act (Regulation (EU) 2022/2065), I notify you of this`,
    `content and ask you to remove it or disable access to it. This notice gives: the reasons I consider`,
    `it illegal (the use of my likeness without my consent), its exact electronic location (the URL`,
    `above), my name and email address (below), and my statement of good faith.`,
  ];
  if (intimate) {
    lines.push(
      ``,
      `The image is an intimate visual depiction of me, made or published without my consent, including`,
      `as a digital forgery. Under the TAKE IT DOWN Act (United States), this is a valid removal request:`,
      `remove the depiction and any known identical copies within 48 hours of receiving it.`,
      NOT_CONSENSUAL_STATEMENT,
    );
  }
  lines.push(
    ``,
    GOOD_FAITH_STATEMENT,
    ``,
    `Signature: ${talentName}`,
    `Email: ________________________`,
    ``,
  );
  return lines.join('\n');
}
