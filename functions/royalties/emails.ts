// The monthly statement email (docs/royalties.md "Emails"): sent once per closed statement, when
// the talent's address is known. It gives the month and the amount; the lines are in the portal.
import { PRODUCT_NAME } from '../../events/product';
import { escapeHtml, frame, type Email } from '../shared/email-layout';

interface StatementReadyInput {
  talentName: string;
  /** `YYYY-MM`. */
  month: string;
  /** What the statement pays, in cents. */
  royaltyCents: number;
  licenses: number;
  siteUrl: string;
}

/** `2026-11` as `November 2026`. */
export function monthLabel(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** Whole cents as dollars: `1234` -> `$12.34`. */
export function dollars(cents: number): string {
  return `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
}

/** "Your statement for <Month YYYY> is ready": the amount and a link to the talent portal. */
export function statementReadyEmail({ talentName, month, royaltyCents, licenses, siteUrl }: StatementReadyInput): Email {
  const label = monthLabel(month);
  const portalUrl = `${siteUrl.replace(/\/+$/, '')}/talent-portal`;
  const subject = `Your ${PRODUCT_NAME} statement for ${label} is ready`;
  const images = `${licenses} licensed image${licenses === 1 ? '' : 's'}`;
  const amount =
    royaltyCents > 0
      ? `Your royalties for ${label}: ${dollars(royaltyCents)}, from ${images}.`
      : `Your royalties for ${label} come to less than a cent, from ${images}: the amount is carried to your next statement.`;
  const payout =
    royaltyCents > 0
      ? 'It is paid to the bank account you set up for payouts through Stripe, once your payouts reach the monthly minimum (smaller amounts are carried to the next payout). Your talent portal shows each payout.'
      : '';
  const text = [
    `Hi ${talentName},`,
    '',
    `Your statement for ${label} is ready.`,
    amount,
    ...(payout ? [payout] : []),
    '',
    `See every license, its tier and what it earned, and download the statement as CSV, in your talent portal: ${portalUrl}`,
    '',
    `The ${PRODUCT_NAME} team`,
  ].join('\n');
  const html = frame(
    subject,
    `<p>Hi ${escapeHtml(talentName)},</p>
<p>Your statement for <strong>${escapeHtml(label)}</strong> is ready.</p>
<p>${escapeHtml(amount)}</p>
${payout ? `<p>${escapeHtml(payout)}</p>` : ''}
<p><a href="${escapeHtml(portalUrl)}">Open your talent portal</a> to see every license, its tier and what it earned, and to download the statement as CSV.</p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  return { subject, text, html };
}
