// The payout emails (docs/payouts.md "Emails"): payouts need setting up, a payout failed and what
// to do, the bank account changed. Each says what happened and links to the talent portal, and is
// sent once per key through the idempotency utility (decision 050).
import { PRODUCT_NAME } from '../../events/product';
import { escapeHtml, frame, type Email } from '../shared/email-layout';
import { ONE_DAY } from '../shared/idempotency';

/**
 * The `sendOnce` operation of a payout email, by its key (`setup:<talent>`,
 * `failed:<statement>:<attempt>`, `bank:<event>`, `bank-failed:<payout>`), kept longer than a
 * payout waits for its account or Stripe sends an event again.
 */
export const payoutEmailOnce = (key: string) => ({ name: 'payout-email', key, expiresAfterSeconds: 400 * ONE_DAY });

/** Whole cents as dollars: `1234` -> `$12.34`. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

/** `2026-11` as `November 2026`. */
export function monthLabel(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

const payoutsPortalUrl = (siteUrl: string) => `${siteUrl.replace(/\/+$/, '')}/talent-portal?payouts=setup`;

function email(subject: string, name: string, paragraphs: string[], link: { url: string; label: string }): Email {
  const text = [`Hi ${name},`, '', ...paragraphs.flatMap((p) => [p, '']), `${link.label}: ${link.url}`, '', `The ${PRODUCT_NAME} team`].join('\n');
  const html = frame(
    subject,
    `<p>Hi ${escapeHtml(name)},</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  return { subject, text, html };
}

/** A payout is due and the talent has no active payout account: set up payouts. */
export function setUpPayoutsEmail(input: { talentName: string; month: string; amountCents: number; siteUrl: string }): Email {
  return email(
    `Set up payouts to receive your ${PRODUCT_NAME} royalties`,
    input.talentName,
    [
      `Your royalties for ${monthLabel(input.month)} come to ${dollars(input.amountCents)}, and we pay them to your bank account through Stripe.`,
      'Set up payouts once in your talent portal: Stripe asks for your name, date of birth, tax details and bank account on its own secure page. We pay what is due as soon as your account is active.',
    ],
    { url: payoutsPortalUrl(input.siteUrl), label: 'Set up payouts' },
  );
}

/** A payout failed for a reason the talent can fix: the reason and what to do. */
export function payoutFailedEmail(input: { talentName: string; month: string; amountCents: number; failure: string; siteUrl: string }): Email {
  return email(
    `Your ${PRODUCT_NAME} payout for ${monthLabel(input.month)} did not go through`,
    input.talentName,
    [
      `We could not pay your royalties for ${monthLabel(input.month)} (${dollars(input.amountCents)}).`,
      input.failure,
      'Once it is fixed, we pay it again: nothing is lost.',
    ],
    { url: payoutsPortalUrl(input.siteUrl), label: 'Open your payout setup' },
  );
}

/** Stripe reported a change of the bank account payouts go to. */
export function bankAccountChangedEmail(input: { talentName: string; change: string; siteUrl: string }): Email {
  return email(
    `The bank account for your ${PRODUCT_NAME} payouts changed`,
    input.talentName,
    [input.change, 'If you did not make this change, contact us at once by replying to this email, and review your payout setup.'],
    { url: payoutsPortalUrl(input.siteUrl), label: 'Review your payout setup' },
  );
}
