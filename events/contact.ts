import * as z from 'zod';

import { CONTACT_LIMITS, CONTACT_PAGES } from './contact-values';

export { CONTACT_DAILY_LIMIT, CONTACT_LIMIT_MESSAGE } from './contact-values';

/** A required text field: trimmed, not blank, at most `max` characters, named in every message. */
const requiredText = (name: string, max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${name} is required` : `${name} must be a string`) })
    .trim()
    .min(1, { error: `${name} is required` })
    .max(max, { error: `${name} must be at most ${max} characters` });

const email = requiredText('email', CONTACT_LIMITS.email)
  .toLowerCase()
  .pipe(z.email({ error: 'email must be a valid email address' }));

/** Body of `POST /contact`, sent by /contact, /pre-launch-contact and /founding-talent-contact. */
export const ContactRequest = z
  .object({
    firstName: requiredText('firstName', CONTACT_LIMITS.name),
    lastName: requiredText('lastName', CONTACT_LIMITS.name),
    email,
    subject: requiredText('subject', CONTACT_LIMITS.subject),
    message: requiredText('message', CONTACT_LIMITS.message),
    /** The route of the contact page that sent it (the leading slash may be left out); the team sees it. */
    page: z
      .string({ error: 'page must be a string' })
      .trim()
      .transform((p) => (p.startsWith('/') ? p : `/${p}`))
      .pipe(z.enum(CONTACT_PAGES, { error: `page must be one of ${CONTACT_PAGES.join(', ')}` }))
      .optional(),
  })
  .strict();
export type ContactRequest = z.infer<typeof ContactRequest>;

/** `POST /contact` answers 202: the message is stored; the emails follow from the event. */
export const ContactResponse = z.object({ received: z.literal(true) });
export type ContactResponse = z.infer<typeof ContactResponse>;

/**
 * `Contact.MessageReceived` v1: a message was stored. It carries the message's id, not its
 * text or the sender's address: the bus archive keeps events for a year, the message table is
 * where personal data lives (and can be deleted). Consumers read the message by id.
 */
export const ContactMessageReceivedV1 = z.object({
  version: z.literal(1),
  messageId: z.uuid(),
  page: z.enum(CONTACT_PAGES).optional(),
  receivedAt: z.iso.datetime(),
});
export type ContactMessageReceivedV1 = z.infer<typeof ContactMessageReceivedV1>;
export const CONTACT_MESSAGE_RECEIVED = 'Contact.MessageReceived';
