/**
 * Plain values of the contact contract, free of zod so the browser can import them without
 * the validation library.
 */

/** The site's contact pages (their routes), all posting to `POST /contact` (docs/product.md#contact). */
export const CONTACT_PAGES = ['/contact', '/pre-launch-contact', '/founding-talent-contact'] as const;

/** Field limits, checked in the browser and on the server. */
export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;

/** Typical response time stated on the contact pages and in the acknowledgement. */
export const CONTACT_RESPONSE_HOURS = 24;

/**
 * Messages one sender address may send per UTC day. Each message emails an acknowledgement to
 * the address given, so without a cap the form could be used to flood someone's inbox.
 */
export const CONTACT_DAILY_LIMIT = 5;
export const CONTACT_LIMIT_MESSAGE = `You have already sent us ${CONTACT_DAILY_LIMIT} messages today. We will reply to those first; please try again tomorrow.`;

/** Messages answered per client IP address, per hour and per day (docs/product.md#contact-limits). */
export const CONTACT_MESSAGES_PER_IP_PER_HOUR = 10;
export const CONTACT_MESSAGES_PER_IP_PER_DAY = 30;
export const CONTACT_IP_HOURLY_MESSAGE = `Too many messages from your network in the last hour (the limit is ${CONTACT_MESSAGES_PER_IP_PER_HOUR}). Please try again later.`;
export const CONTACT_IP_DAILY_MESSAGE = `Too many messages from your network today (the limit is ${CONTACT_MESSAGES_PER_IP_PER_DAY}). Please try again tomorrow.`;
