// The emails of a talent's likeness removal (docs/royalties.md#emails): the request, with the date
// it takes effect and how to cancel it, and the removal done.
import { PRODUCT_NAME } from '../../../events/product';
import { escapeHtml, frame, type Email } from '../../shared/email-layout';

/** A day and time in UTC as the emails and the portal state it: "25 December 2026, 09:30 UTC". */
function removalDateText(iso: string): string {
  const at = new Date(iso);
  const day = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
  return `${day}, ${time} UTC`;
}

/** A day in UTC: "30 June 2027". */
export function dayText(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

interface Block {
  text: string;
  html: string;
}
const para = (text: string): Block => ({ text, html: `<p>${escapeHtml(text)}</p>` });
const list = (items: string[]): Block => ({
  text: items.map((i) => `- ${i}`).join('\n'),
  html: `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`,
});
const button = (label: string, url: string): Block => ({
  text: `${label}: ${url}`,
  html: `<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#7e2a6b;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(label)}</a></p>`,
});
const greeting = (name: string) => para(`Hi ${name.replace(/\s+/g, ' ').trim().split(' ')[0]?.slice(0, 100) || 'there'},`);
const signOff = para(`The ${PRODUCT_NAME} team`);

function compose(subject: string, blocks: Block[]): Email {
  return { subject, text: blocks.map((b) => b.text).join('\n\n'), html: frame(subject, blocks.map((b) => b.html).join('\n')) };
}

/** Where the talent manages their likeness (pause, cancel a removal, download their data). */
const talentPortalUrl = (siteUrl: string) => `${siteUrl.replace(/\/$/, '')}/talent-portal`;

export interface RemovalRequestedInput {
  name: string;
  effectiveAt: string;
  founding: boolean;
  siteUrl: string;
}

/** Sent when the talent requests removal: when it takes effect, what happens, how to cancel. */
export function removalRequestedEmail(i: RemovalRequestedInput): Email {
  const when = removalDateText(i.effectiveAt);
  return compose(`Your likeness will be removed on ${dayText(i.effectiveAt)}`, [
    greeting(i.name),
    para(`We received your request to remove your likeness from ${PRODUCT_NAME}. It takes effect on ${when}.`),
    para('When it does:'),
    list([
      'you leave the Talent Library and the create page, and nobody can generate images with your likeness;',
      'your model configuration is cleared;',
      'licenses already issued for images of your likeness stay valid.',
      ...(i.founding ? ['your founding 35% royalty rate ends and cannot be restored.'] : []),
    ]),
    para(`Changed your mind? Cancel the request in your talent portal any time before ${when}:`),
    button('Open your talent portal', talentPortalUrl(i.siteUrl)),
    para('If you did not ask for this, cancel it in your portal and contact us.'),
    signOff,
  ]);
}

export interface RemovalDoneInput {
  name: string;
  removedAt: string;
  siteUrl: string;
}

/** Sent once the removal took effect. */
export function removalDoneEmail(i: RemovalDoneInput): Email {
  return compose(`Your likeness has been removed from ${PRODUCT_NAME}`, [
    greeting(i.name),
    para(`As you asked, your likeness was removed from ${PRODUCT_NAME} on ${removalDateText(i.removedAt)}.`),
    list([
      'You are no longer in the Talent Library or on the create page, and nobody can generate images with your likeness.',
      'Your model configuration has been cleared.',
      'Licenses already issued for images of your likeness stay valid.',
    ]),
    para('Your statements, and any royalties earned before the removal, stay in your talent portal, where you can also download all your data:'),
    button('Open your talent portal', talentPortalUrl(i.siteUrl)),
    para('Thank you for having been part of the marketplace.'),
    signOff,
  ]);
}
