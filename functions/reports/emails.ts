// The reports' emails (docs/product.md#reports-and-takedown): the reporter's acknowledgement and
// decision, the talent's notice and outcome, the client's statement of reasons with the appeal
// link. Everything a person typed is escaped in the HTML and kept to one line in a subject; the
// reporter's own text is never echoed (the form accepts any address).
import { licensePath } from '../../events/generation-values';
import { PRODUCT_NAME } from '../../events/product';
import { appealPath, REPORT_ACTION_LABELS, REPORT_CATEGORY_LABELS, type ReportAction, type ReportCategory } from '../../events/report-values';
import { escapeHtml, frame, type Email } from '../shared/email-layout';

const site = (siteUrl: string) => siteUrl.replace(/\/$/, '');
const day = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

/** Plain paragraphs as text and as escaped HTML. */
function email(subject: string, paragraphs: string[], quote?: string): Email {
  const text = [...paragraphs.slice(0, 2), ...(quote ? [quote] : []), ...paragraphs.slice(2), `The ${PRODUCT_NAME} team`].join('\n\n');
  const html = frame(
    subject,
    [
      ...paragraphs.slice(0, 2).map((p) => `<p>${escapeHtml(p)}</p>`),
      ...(quote ? [`<div style="margin:20px 0;padding:16px;border-left:3px solid #c2410c;background:#fff7ed;white-space:pre-wrap">${escapeHtml(quote)}</div>`] : []),
      ...paragraphs.slice(2).map((p) => `<p>${escapeHtml(p)}</p>`),
      `<p>The ${PRODUCT_NAME} team</p>`,
    ].join('\n'),
  );
  return { subject, text, html };
}

/** The reporter's acknowledgement: the reference, what was reported and when it is due. */
export function reportReceivedEmail(r: { reference: string; category: ReportCategory; dueAt: string }): Email {
  return email(`We received your report ${r.reference} - ${PRODUCT_NAME}`, [
    `Thank you for your report. Its reference is ${r.reference}: quote it if you write to us about it.`,
    `What you reported: ${REPORT_CATEGORY_LABELS[r.category]}. A person on our team will review it by ${day(r.dueAt)}, and we will email you the decision.`,
    'If you did not send this report, you can ignore this email.',
  ]);
}

const outcomeText: Record<ReportAction, string> = {
  dismiss: 'we reviewed the image and found no breach of its license or of our rules, so we took no action against it',
  'revoke-license': 'we revoked the license of the image: it may no longer be used, and its client was told why',
  'suspend-client': 'we suspended the client who made the image',
  'remove-sample': "we removed the talent's sample image",
};

/** The reporter's decision email: what was decided, never the client's name or the statement of reasons. */
export function reportDecidedEmail(r: { reference: string; action: ReportAction }): Email {
  return email(`Decision on your report ${r.reference} - ${PRODUCT_NAME}`, [
    `We decided on your report ${r.reference}: ${outcomeText[r.action]}.`,
    'If you disagree with this decision, reply to this email with your reasons.',
  ]);
}

/** The talent's notice that a report concerns an image made with their likeness. */
export function talentReportEmail(r: { reference: string; category: ReportCategory; licenseId: string; siteUrl: string }): Email {
  return email(`A report about an image of your likeness - ${PRODUCT_NAME}`, [
    `We received a report about an image made with your likeness under license ${r.licenseId} (${site(r.siteUrl)}${licensePath(r.licenseId)}). What was reported: ${REPORT_CATEGORY_LABELS[r.category]}.`,
    `A person on our team is reviewing it (reference ${r.reference}); we will email you the outcome. You do not need to do anything.`,
  ]);
}

/** The talent's outcome email. */
export function talentOutcomeEmail(r: { reference: string; action: ReportAction }): Email {
  return email(`Outcome of the report about your likeness - ${PRODUCT_NAME}`, [`We decided on the report ${r.reference} about an image of your likeness: ${outcomeText[r.action]}.`]);
}

/**
 * The client's statement of reasons (DSA Article 17): what was decided about their license, the
 * reviewer's reasons, and how to appeal (once, to a different reviewer).
 */
export function clientStatementEmail(r: { reference: string; action: ReportAction; licenseId: string; reasons: string; siteUrl: string; afterAppeal: boolean }): Email {
  const license = `${site(r.siteUrl)}${licensePath(r.licenseId)}`;
  const appeal = `${site(r.siteUrl)}${appealPath(r.reference)}`;
  return email(
    `${r.afterAppeal ? 'Decision on your appeal' : 'Decision about your license'} ${r.reference} - ${PRODUCT_NAME}`,
    [
      `After a report about an image you licensed (license ${r.licenseId}, ${license}), we decided: ${REPORT_ACTION_LABELS[r.action]}.`,
      'Our statement of reasons:',
      r.afterAppeal
        ? 'A second reviewer, other than the first, decided on your appeal. This decision is final on our side.'
        : `If you disagree, you can appeal once, and a different reviewer will decide: ${appeal}`,
    ],
    r.reasons,
  );
}
