// The review console's own admin API (waitlist, talent, messages, dashboard). The applications
// routes are in founding.ts. Every list answers `{ items, total }` for one page.
import * as z from 'zod';

import { APPLICATION_STATUSES, FOUNDING_SPOTS, type ApplicationStatus } from './founding-values';
import { ReportStats } from './reports';
import { RoyaltyStats } from './royalties';
import { TALENT_STATUSES } from './talent-values';

/** Paging and sorting every admin list accepts (react-admin's getList, as query parameters). */
const listParams = {
  q: z.string().trim().max(200).optional(),
  order: z.enum(['ASC', 'DESC']).default('ASC'),
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().positive().max(500).default(25),
};

export interface ListResponse<T> {
  items: T[];
  total: number;
}

// ---- Dashboard ------------------------------------------------------------------------------

/** `GET /admin/stats`. */
export const AdminStats = z.object({
  waitlist: z.object({ count: z.number().int().nonnegative(), capacity: z.number().int().positive() }),
  founding: z.object({ total: z.literal(FOUNDING_SPOTS), taken: z.number().int().nonnegative() }),
  applications: z.object({
    total: z.number().int().nonnegative(),
    byStatus: z.record(z.enum(APPLICATION_STATUSES), z.number().int().nonnegative()),
    /** Applications waiting for a reviewer's decision. */
    waitingForReview: z.number().int().nonnegative(),
    /** When the longest-waiting of them was submitted. */
    oldestWaitingSince: z.iso.datetime().optional(),
  }),
  /** Emails that could not be sent, by what they were for. */
  failedEmails: z.object({
    total: z.number().int().nonnegative(),
    applications: z.number().int().nonnegative(),
    waitlist: z.number().int().nonnegative(),
    contact: z.number().int().nonnegative(),
  }),
  /** Generations that ended failed (the console lists them with the status filter). */
  generations: z.object({ failed: z.number().int().nonnegative() }),
  /** What the latest closed month's statements still owe talent (the console lists them filtered to it). */
  royalties: RoyaltyStats,
  /** Misuse reports waiting for a decision (the console lists them in the reports queue). */
  reports: ReportStats,
});
export type AdminStats = z.infer<typeof AdminStats>;

export const emptyStatusCounts = (): Record<ApplicationStatus, number> =>
  Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, 0])) as Record<ApplicationStatus, number>;

// ---- Waitlist -------------------------------------------------------------------------------

/** `GET /admin/waitlist`: signups in waitlist order; `q` searches email and first name. */
export const WaitlistListQuery = z
  .object({
    ...listParams,
    sort: z.enum(['position', 'signedUpAt', 'email']).default('position'),
    signupType: z.string().max(40).optional(),
    newsletter: z.enum(['true', 'false']).optional(),
  })
  .strict();
export type WaitlistListQuery = z.input<typeof WaitlistListQuery>;

export interface WaitlistEntry {
  /** The position: unique, stable, and no personal data in the console's URLs. */
  id: number;
  position: number;
  email: string;
  firstName?: string;
  signupType?: string;
  newsletter: boolean;
  signedUpAt: string;
  /** The welcome email: queued, sending, sent or failed. */
  welcome?: string;
}

/** `GET /admin/waitlist/export`: the whole waitlist as CSV, in this column order. */
export const WAITLIST_CSV_COLUMNS = ['position', 'email', 'firstName', 'signupType', 'newsletter', 'signedUpAt'] as const;

// ---- Talent ---------------------------------------------------------------------------------

/** `GET /admin/talent`: every talent, hidden ones too. */
export const TalentAdminListQuery = z
  .object({
    ...listParams,
    sort: z.enum(['name', 'generationCount', 'status', 'id']).default('name'),
    status: z.enum(TALENT_STATUSES).optional(),
    featured: z.enum(['true', 'false']).optional(),
    founding: z.enum(['true', 'false']).optional(),
  })
  .strict();
export type TalentAdminListQuery = z.input<typeof TalentAdminListQuery>;

/** `PATCH /admin/talent/{id}`: what reviewers may edit. The founding flag and royalty plan are not editable. */
export const TalentUpdateRequest = z
  .object({
    tagline: z.string({ error: 'tagline must be a string' }).trim().min(1, { error: 'tagline is required' }).max(160, { error: 'tagline must be at most 160 characters' }),
    bio: z.string({ error: 'bio must be a string' }).trim().min(1, { error: 'bio is required' }).max(2000, { error: 'bio must be at most 2000 characters' }),
    tags: z
      .array(z.string().trim().min(1, { error: 'tags may not be blank' }).max(40, { error: 'a tag may have at most 40 characters' }), { error: 'tags must be a list' })
      .max(12, { error: 'at most 12 tags' }),
    featured: z.boolean({ error: 'featured must be true or false' }),
    status: z.enum(TALENT_STATUSES, { error: `status must be one of ${TALENT_STATUSES.join(', ')}` }),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { error: 'send at least one of tagline, bio, tags, featured, status' });
export type TalentUpdateRequest = z.input<typeof TalentUpdateRequest>;

// ---- Contact messages -----------------------------------------------------------------------

const MESSAGE_STATUSES = ['new', 'handled'] as const;
type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** `GET /admin/messages`: newest first by default; `q` searches name, email and subject. */
export const MessageListQuery = z
  .object({
    ...listParams,
    order: z.enum(['ASC', 'DESC']).default('DESC'),
    sort: z.enum(['createdAt', 'subject', 'status']).default('createdAt'),
    status: z.enum(MESSAGE_STATUSES).optional(),
  })
  .strict();
export type MessageListQuery = z.input<typeof MessageListQuery>;

export interface AdminMessage {
  id: string;
  status: MessageStatus;
  createdAt: string;
  firstName: string;
  lastName: string;
  email: string;
  subject: string;
  message: string;
  page?: string;
  handledAt?: string;
  handledBy?: string;
  /** Delivery of the team's copy and of the sender's acknowledgement. */
  teamEmail?: string;
  ackEmail?: string;
}

/** `PATCH /admin/messages/{id}`. */
export const MessageUpdateRequest = z.object({ handled: z.boolean({ error: 'handled must be true or false' }) }).strict();
export type MessageUpdateRequest = z.infer<typeof MessageUpdateRequest>;
