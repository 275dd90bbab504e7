// The proof of person's email to the applicant (docs/identity.md): fewer than 30 usable photos,
// which to replace and why, and the link (valid IDENTITY_TOKEN_DAYS) to the replace page.
import { MIN_APPLICATION_IMAGES } from '../../../events/founding-values';
import { IDENTITY_TOKEN_DAYS } from '../../../events/identity';
import { PRODUCT_NAME } from '../../../events/product';
import { escapeHtml, frame, type Email } from '../../shared/email-layout';

export interface ReplacePhotosInput {
  firstName: string;
  usable: number;
  /** Each photo to replace: its number as the applicant sees it (1-based) and why. */
  photos: Array<{ number: number; reasons: string[] }>;
  /** The replace page, with the token in its fragment. */
  replaceUrl: string;
}

/** The replace page's address: the token rides in the fragment, which reaches no server log. */
export const replacePageUrl = (siteUrl: string, token: string) => `${siteUrl.replace(/\/$/, '')}/founding/photos#token=${encodeURIComponent(token)}`;

export function replacePhotosEmail(i: ReplacePhotosInput): Email {
  const subject = `Replace a few photos to continue your application - ${PRODUCT_NAME}`;
  const name = i.firstName.replace(/\s+/g, ' ').trim().slice(0, 100) || 'there';
  const needed = Math.max(0, MIN_APPLICATION_IMAGES - i.usable);
  const intro = [
    `Hi ${name},`,
    `We checked the faces in your photos: ${i.usable} can be used, and an application needs ${MIN_APPLICATION_IMAGES}. Please add at least ${needed} more, or replace the photos below. Your application waits for them: we review it once it has ${MIN_APPLICATION_IMAGES} usable photos.`,
  ];
  const items = i.photos.map((p) => `Photo ${p.number}: ${p.reasons.join(' ')}`);
  const outro = [`The link works for ${IDENTITY_TOKEN_DAYS} days. If you did not apply, ignore this email.`, `The ${PRODUCT_NAME} team`];
  const button = `<p style="margin:24px 0"><a href="${escapeHtml(i.replaceUrl)}" style="display:inline-block;background:#c2410c;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">Add or replace photos</a></p>`;
  return {
    subject,
    text: [...intro, ...items.map((l) => `- ${l}`), `Add or replace photos: ${i.replaceUrl}`, ...outro].join('\n\n'),
    html: frame(
      subject,
      intro.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
        (items.length ? `<ul>${items.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : '') +
        button +
        outro.map((l) => `<p>${escapeHtml(l)}</p>`).join(''),
    ),
  };
}
