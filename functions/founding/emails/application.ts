import {
  FOUNDING_ROYALTY_PERCENT,
  FOUNDING_SPOTS,
  MIN_APPLICATION_IMAGES,
  PHOTO_LIMITS,
  REJECTED_PHOTO_RETENTION_DAYS,
  REVIEW_TIME_TEXT,
  STANDARD_ROYALTY_TIERS,
  type ApplicationProgram,
} from '../../../events/founding-values';
import { PRODUCT_NAME } from '../../../events/product';
import { escapeHtml, frame, type Email } from '../../shared/email-layout';

/** A paragraph as plain text and as (escaped) HTML. */
interface Block {
  text: string;
  html: string;
}
const para = (text: string): Block => ({ text, html: `<p>${escapeHtml(text)}</p>` });
const link = (before: string, label: string, url: string, after = ''): Block => ({
  text: `${before}${label}: ${url}${after}`,
  html: `<p>${escapeHtml(before)}<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>${escapeHtml(after)}</p>`,
});
const list = (items: string[]): Block => ({
  text: items.map((i) => `- ${i}`).join('\n'),
  html: `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`,
});
const quote = (text: string): Block => ({
  text: text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n'),
  html: `<div style="margin:16px 0;padding:16px;border-left:3px solid #c2410c;background:#fff7ed;white-space:pre-wrap">${escapeHtml(text)}</div>`,
});
const signOff = para(`The ${PRODUCT_NAME} team`);

function compose(subject: string, blocks: Block[]): Email {
  return {
    subject,
    text: blocks.map((b) => b.text).join('\n\n'),
    html: frame(subject, blocks.map((b) => b.html).join('\n')),
  };
}

const site = (siteUrl: string, path: string) => `${siteUrl.replace(/\/$/, '')}${path}`;
const greeting = (firstName: string) => para(`Hi ${firstName.replace(/\s+/g, ' ').trim().slice(0, 100) || 'there'},`);

/** "20% on the first 50 licenses each month, 25% on licenses 51-200, and 30% beyond 200". */
export function standardTiersText(): string {
  let from = 1;
  const parts = STANDARD_ROYALTY_TIERS.map((tier) => {
    const part =
      tier.upTo === null
        ? `${tier.percent}% beyond ${from - 1}`
        : from === 1
          ? `${tier.percent}% on the first ${tier.upTo} licenses each month`
          : `${tier.percent}% on licenses ${from}-${tier.upTo}`;
    if (tier.upTo !== null) from = tier.upTo + 1;
    return part;
  });
  return `${parts.slice(0, -1).join(', ')}, and ${parts.at(-1)}`;
}

export interface ConfirmationInput {
  firstName: string;
  applicationId: string;
  program: ApplicationProgram;
  validPhotoCount: number;
  siteUrl: string;
}

/** To the applicant once their photos have been checked and enough were accepted. */
export function applicationConfirmationEmail(i: ConfirmationInput): Email {
  const founding = i.program === 'founding';
  const subject = founding ? `We received your founding talent application - ${PRODUCT_NAME}` : `We received your talent application - ${PRODUCT_NAME}`;
  return compose(subject, [
    greeting(i.firstName),
    para(
      `Thank you for applying to become ${founding ? 'founding talent' : 'talent'} at ${PRODUCT_NAME}. We received your application and accepted ${i.validPhotoCount} of your photos for review.`,
    ),
    para(`Our team reviews every application personally. Expect to hear from us within ${REVIEW_TIME_TEXT}.`),
    ...(founding
      ? [para(`Founding talent earn ${FOUNDING_ROYALTY_PERCENT}% royalties for life. Only ${FOUNDING_SPOTS} founding spots exist, for the first applicants who meet our criteria.`)]
      : []),
    para(`Your application number is ${i.applicationId}. Please keep it in case you contact us about your application.`),
    link('Questions? ', 'Contact us', site(i.siteUrl, founding ? '/founding-talent-contact' : '/contact'), '.'),
    signOff,
  ]);
}

export interface InvalidPhotosInput {
  firstName: string;
  applicationId: string;
  program: ApplicationProgram;
  validPhotoCount: number;
  /** Why photos were refused, one entry per refused photo. */
  reasons: string[];
  siteUrl: string;
}

/** To the applicant when too few photos passed the checks: what went wrong, in counted reasons. */
export function invalidPhotosEmail(i: InvalidPhotosInput): Email {
  const founding = i.program === 'founding';
  const counts = new Map<string, number>();
  for (const r of i.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const lines = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} ${n === 1 ? 'photo' : 'photos'}: ${reason}`);
  const subject = `Your application needs more photos - ${PRODUCT_NAME}`;
  return compose(subject, [
    greeting(i.firstName),
    para(
      `Thank you for applying to ${PRODUCT_NAME}. We checked the photos you sent and could accept ${i.validPhotoCount}, but an application needs at least ${MIN_APPLICATION_IMAGES} usable photos, so we cannot review it yet.`,
    ),
    ...(lines.length ? [para('These photos could not be used:'), list(lines)] : []),
    link(
      `Photos must be JPEG or PNG images, at least ${PHOTO_LIMITS.minSide} pixels on the shorter side. Our photo guide explains what works best: `,
      'training image best practices',
      site(i.siteUrl, founding ? '/training-image-best-practices-founders' : '/training-image-best-practices'),
      '.',
    ),
    link(
      `To send new photos, contact us and mention your application number ${i.applicationId}: `,
      'contact us',
      site(i.siteUrl, founding ? '/founding-talent-contact' : '/contact'),
      '.',
    ),
    signOff,
  ]);
}

export interface AcceptanceInput {
  firstName: string;
  program: ApplicationProgram;
  founding: boolean;
  spotNumber?: number;
  /** What the reviewer wrote to the applicant ("Message to the applicant"), if anything. */
  messageToApplicant?: string;
  siteUrl: string;
}

/** The reviewer's message to the applicant, quoted; nothing when they wrote none. */
const reviewerMessage = (message: string | undefined): Block[] => {
  const text = message?.trim();
  return text ? [para('A message from our reviewer:'), quote(text)] : [];
};

/** To an accepted applicant: founding (35% for life, their spot number) or standard talent on the tiers. */
export function acceptanceEmail(i: AcceptanceInput): Email {
  const blocks: Block[] = [greeting(i.firstName)];
  let subject: string;
  if (i.founding) {
    subject = `Welcome, founding talent #${i.spotNumber} - ${PRODUCT_NAME}`;
    blocks.push(
      para(`Congratulations! Your application has been accepted and you are founding talent #${i.spotNumber} of ${FOUNDING_SPOTS}.`),
      para(`As founding talent you earn ${FOUNDING_ROYALTY_PERCENT}% royalties on every license of your likeness, for life. Royalties are paid monthly.`),
    );
  } else {
    subject = `Your talent application has been accepted - ${PRODUCT_NAME}`;
    blocks.push(para(`Congratulations! Your application has been accepted and you join ${PRODUCT_NAME} as talent.`));
    if (i.program === 'founding') {
      blocks.push(para(`All ${FOUNDING_SPOTS} founding spots were taken before your application was reviewed, so you join as standard talent.`));
    }
    blocks.push(para(`You earn royalties on every license of your likeness: ${standardTiersText()}. Royalties are paid monthly.`));
  }
  blocks.push(
    ...reviewerMessage(i.messageToApplicant),
    para('You will receive a separate email with your sign-in details for the talent portal. Please sign in and set your password within 3 days.'),
    para('You can remove your likeness at any time unless a frozen-likeness contract with a brand is in force.'),
    link('Questions? ', 'Contact us', site(i.siteUrl, i.program === 'founding' ? '/founding-talent-contact' : '/contact'), '.'),
    signOff,
  );
  return compose(subject, blocks);
}

export interface RejectionInput {
  firstName: string;
  program: ApplicationProgram;
  /**
   * What the reviewer wrote to the applicant ("Message to the applicant"), if anything. Never
   * the reviewer's internal note.
   */
  messageToApplicant?: string;
  siteUrl: string;
}

export function rejectionEmail(i: RejectionInput): Email {
  const subject = `About your application - ${PRODUCT_NAME}`;
  return compose(subject, [
    greeting(i.firstName),
    para(`Thank you for applying to ${PRODUCT_NAME} and for the time you put into your application. After careful review, we are not able to accept it.`),
    ...reviewerMessage(i.messageToApplicant),
    para(`We delete the photos you sent within ${REJECTED_PHOTO_RETENTION_DAYS} days.`),
    link('Questions? ', 'Contact us', site(i.siteUrl, i.program === 'founding' ? '/founding-talent-contact' : '/contact'), '.'),
    signOff,
  ]);
}

/** "7 days", "1 day 3 hours", "5 hours". */
export function waitedText(ms: number): string {
  const hours = Math.max(0, Math.floor(ms / 3_600_000));
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (days === 0) return unit(rest, 'hour');
  return rest ? `${unit(days, 'day')} ${unit(rest, 'hour')}` : unit(days, 'day');
}

export interface ReminderInput {
  applicationId: string;
  program: ApplicationProgram;
  submittedAt: string;
  waitedMs: number;
  adminUrl: string;
}

/** To the reviewers when an application has waited for a decision; ids only, no applicant data. */
export function reviewReminderEmail(i: ReminderInput): Email {
  const url = `${i.adminUrl.replace(/\/$/, '')}/#/applications/${encodeURIComponent(i.applicationId)}/show`;
  const waited = waitedText(i.waitedMs);
  const subject = `[Review] Application ${i.applicationId} has waited ${waited}`;
  return compose(subject, [
    para(`A ${i.program === 'founding' ? 'founding talent' : 'talent'} application has been waiting for a decision for ${waited} (submitted ${i.submittedAt}).`),
    para(`We promise applicants an answer within ${REVIEW_TIME_TEXT}.`),
    link('Review it in the admin console: ', `application ${i.applicationId}`, url),
    para('We will remind you again while it waits.'),
  ]);
}
