// The training wing's email (docs/training.md "Emails"): the likeness model is ready for the
// talent's review. No image is attached: the samples are seen signed in, in the talent portal.
import { PRODUCT_NAME } from '../../events/product';
import { escapeHtml, frame, type Email } from '../shared/email-layout';

export function modelReadyEmail({ firstName, siteUrl, retraining }: { firstName: string; siteUrl: string; retraining: boolean }): Email {
  const portalUrl = `${siteUrl.replace(/\/+$/, '')}/talent-portal`;
  const subject = retraining ? `Your new ${PRODUCT_NAME} likeness model is ready for your review` : `Your ${PRODUCT_NAME} likeness model is ready for your review`;
  const lead = retraining
    ? 'We trained your likeness model again from your accepted photos, as you asked.'
    : 'We trained an AI model of your likeness from the photos we accepted.';
  const ask =
    'Look at the sample images in your talent portal. If they look like you, approve them and your likeness goes live in the library. If they do not, choose "This isn\'t me" and tell us what looks wrong: we train it again.';
  const safe = 'Nobody can generate images of you until you approve.';
  const text = [`Hi ${firstName},`, '', lead, ask, safe, '', `Open your talent portal: ${portalUrl}`, '', `The ${PRODUCT_NAME} team`].join('\n');
  const html = frame(
    subject,
    `<p>Hi ${escapeHtml(firstName)},</p>
<p>${escapeHtml(lead)}</p>
<p>${escapeHtml(ask)}</p>
<p><strong>${escapeHtml(safe)}</strong></p>
<p><a href="${escapeHtml(portalUrl)}">Review your likeness model</a></p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  return { subject, text, html };
}
