import { PRODUCT_NAME } from '../../../events/product';
import { escapeHtml, frame, type Email } from '../../shared/email-layout';

export interface WelcomeInput {
  firstName?: string;
  position: number;
  siteUrl: string;
}

/** The welcome email for a new waitlist signup. */
export function waitlistWelcomeEmail({ firstName, position, siteUrl }: WelcomeInput): Email {
  const greeting = firstName ? `Hi ${firstName},` : 'Hi there,';
  const foundingUrl = `${siteUrl.replace(/\/$/, '')}/founding-talent-application`;
  const subject = `You're on the ${PRODUCT_NAME} early-access list (#${position})`;
  const text = [
    greeting,
    '',
    `Thanks for joining the ${PRODUCT_NAME} early-access waitlist. You are number ${position} on the list.`,
    '',
    'What happens next:',
    '- We will email you before launch in 2026 with your early-access invitation.',
    '- The first 100 on the list get beta access.',
    '- Every image you create will be commercially licensed, with the talent paid royalties.',
    '',
    `Know someone who should license their likeness? Founding talent apply here: ${foundingUrl}`,
    '',
    `The ${PRODUCT_NAME} team`,
  ].join('\n');
  const html = frame(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p>Thanks for joining the ${PRODUCT_NAME} early-access waitlist. You are <strong>number ${position}</strong> on the list.</p>
<p><strong>What happens next</strong></p>
<ul><li>We will email you before launch in 2026 with your early-access invitation.</li>
<li>The first 100 on the list get beta access.</li>
<li>Every image you create will be commercially licensed, with the talent paid royalties.</li></ul>
<p>Know someone who should license their likeness? <a href="${escapeHtml(foundingUrl)}">Founding talent apply here</a>.</p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  return { subject, text, html };
}
