import { CONFIRMATION_DAYS, type ApplicationProgram } from '../../../events/founding-values';
import { PRODUCT_NAME } from '../../../events/product';
import { escapeHtml, frame, type Email } from '../../shared/email-layout';

export interface AddressConfirmationInput {
  firstName: string;
  program: ApplicationProgram;
  /** The site page that confirms (it POSTs the token; opening the link alone changes nothing). */
  confirmUrl: string;
}

/**
 * The site page an address confirmation link opens. The token rides in the fragment, which
 * browsers never send: it reaches no server or CDN log.
 */
export function confirmationPageUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/$/, '')}/thank-you?type=founding-confirm#token=${encodeURIComponent(token)}`;
}

/** To the address an application names, right after signup: the application counts once confirmed (decision 013). */
export function addressConfirmationEmail(i: AddressConfirmationInput): Email {
  const what = i.program === 'founding' ? 'founding talent application' : 'talent application';
  const subject = `Confirm your email to submit your ${what} - ${PRODUCT_NAME}`;
  const name = i.firstName.replace(/\s+/g, ' ').trim().slice(0, 100) || 'there';
  const lines = [
    `Hi ${name},`,
    `Thank you for applying to ${PRODUCT_NAME}. Please confirm your email address to submit your ${what}: we review it only once it is confirmed.`,
    `The link works for ${CONFIRMATION_DAYS} days. If you did not apply, ignore this email: nothing is submitted and your address is not kept.`,
    `The ${PRODUCT_NAME} team`,
  ];
  const button = `<p style="margin:24px 0"><a href="${escapeHtml(i.confirmUrl)}" style="display:inline-block;background:#c2410c;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">Confirm my email address</a></p>`;
  return {
    subject,
    text: [lines[0], lines[1], `Confirm your email address: ${i.confirmUrl}`, lines[2], lines[3]].join('\n\n'),
    html: frame(subject, [lines[0], lines[1]].map((l) => `<p>${escapeHtml(l)}</p>`).join('') + button + [lines[2], lines[3]].map((l) => `<p>${escapeHtml(l)}</p>`).join('')),
  };
}
