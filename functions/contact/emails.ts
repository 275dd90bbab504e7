import { CONTACT_RESPONSE_HOURS } from '../../events/contact-values';
import { PRODUCT_NAME } from '../../events/product';
import { escapeHtml, frame, type Email } from '../shared/email-layout';

export interface ContactMessage {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  subject: string;
  message: string;
  page?: string;
  createdAt: string;
}

/** Header-safe: what people type may hold line breaks; a subject is one line. */
const oneLine = (value: string, max = 120) => {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The team's copy of a contact message; replying answers the sender (Reply-To). */
export function contactTeamEmail(m: ContactMessage, siteUrl: string): Email {
  const from = `${m.firstName} ${m.lastName}`;
  const page = `${siteUrl.replace(/\/$/, '')}${m.page ?? '/contact'}`;
  const subject = `[Contact] ${oneLine(m.subject)} (${oneLine(from, 60)})`;
  const facts: Array<[string, string]> = [
    ['From', `${from} <${m.email}>`],
    ['Subject', m.subject],
    ['Sent from', page],
    ['Received', m.createdAt],
    ['Message id', m.id],
  ];
  const text = [
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    m.message,
    '',
    `Reply to this email to answer ${m.firstName}; we promise a reply within ${CONTACT_RESPONSE_HOURS} hours.`,
  ].join('\n');
  const html = frame(
    subject,
    `<p><strong>New message from the contact form</strong></p>
<table role="presentation" cellpadding="4" cellspacing="0" style="font-size:14px">${facts
      .map(([k, v]) => `<tr><td style="color:#6b625c;vertical-align:top">${k}</td><td>${escapeHtml(v)}</td></tr>`)
      .join('')}</table>
<div style="margin:20px 0;padding:16px;border-left:3px solid #c2410c;background:#fff7ed;white-space:pre-wrap">${escapeHtml(m.message)}</div>
<p style="font-size:13px;color:#6b625c">Reply to this email to answer ${escapeHtml(m.firstName)}; we promise a reply within ${CONTACT_RESPONSE_HOURS} hours.</p>`,
  );
  return { subject, text, html };
}

/**
 * The sender's acknowledgement. It repeats nothing they typed except their first name: the
 * form accepts any address, so an acknowledgement that echoed the message would let anyone
 * send their text to a stranger under our name.
 */
export function contactAcknowledgementEmail(m: Pick<ContactMessage, 'firstName'>, siteUrl: string): Email {
  const greeting = `Hi ${oneLine(m.firstName, 100)},`;
  const libraryUrl = `${siteUrl.replace(/\/$/, '')}/talent`;
  const subject = `We received your message - ${PRODUCT_NAME}`;
  const text = [
    greeting,
    '',
    `Thanks for getting in touch with ${PRODUCT_NAME}. Your message has reached our team, and we typically reply within ${CONTACT_RESPONSE_HOURS} hours.`,
    '',
    `In the meantime, you can browse the Talent Library: ${libraryUrl}`,
    '',
    'If you did not write to us, you can ignore this email.',
    '',
    `The ${PRODUCT_NAME} team`,
  ].join('\n');
  const html = frame(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p>Thanks for getting in touch with ${PRODUCT_NAME}. Your message has reached our team, and we typically reply <strong>within ${CONTACT_RESPONSE_HOURS} hours</strong>.</p>
<p>In the meantime, you can <a href="${escapeHtml(libraryUrl)}">browse the Talent Library</a>.</p>
<p style="font-size:13px;color:#6b625c">If you did not write to us, you can ignore this email.</p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  return { subject, text, html };
}
