import { PRODUCT_NAME } from '../../../events/product';
import { WAITLIST_CONFIRMATION_HOURS } from '../../../events/waitlist-values';
import { escapeHtml, frame, type Email } from '../../shared/email-layout';

export interface ConfirmationInput {
  firstName?: string;
  /** The confirmation link (waitlistConfirmationUrl). */
  link: string;
}

/**
 * Where a confirmation link leads: the thank-you page, with the token in the fragment so it
 * never reaches a server's logs or a Referer header. The page posts it; opening the link alone
 * (as mail scanners do) changes nothing.
 */
export function waitlistConfirmationUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/$/, '')}/thank-you?type=waitlist#confirm=${token}`;
}

/**
 * The email sent for every signup, whether the address is new, waiting or already on the list:
 * following its link takes the place, or shows the place already held.
 */
export function waitlistConfirmationEmail({ firstName, link }: ConfirmationInput): Email {
  const greeting = firstName ? `Hi ${firstName},` : 'Hi there,';
  const subject = `Confirm your place on the ${PRODUCT_NAME} early-access list`;
  const text = [
    greeting,
    '',
    `Someone (we hope you) asked to join the ${PRODUCT_NAME} early-access waitlist with this address.`,
    'Confirm it to take your place and see your number on the list:',
    '',
    link,
    '',
    `The link works for ${WAITLIST_CONFIRMATION_HOURS} hours. If you did not ask to join, ignore this email: nothing is kept and we will not write again.`,
    '',
    `The ${PRODUCT_NAME} team`,
  ].join('\n');
  const html = frame(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p>Someone (we hope you) asked to join the ${PRODUCT_NAME} early-access waitlist with this address. Confirm it to take your place and see your number on the list.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#7e2a6b;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">Confirm my place</a></p>
<p style="font-size:13px;color:#6b625c">Or paste this link into your browser: ${escapeHtml(link)}</p>
<p>The link works for ${WAITLIST_CONFIRMATION_HOURS} hours. If you did not ask to join, ignore this email: nothing is kept and we will not write again.</p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  return { subject, text, html };
}
