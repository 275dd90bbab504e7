// Accounts, credits and the two portals' API (docs/product.md#accounts): the `/me` routes a
// signed-in client or talent calls, and the console's Users resource. Web, admin and functions
// all parse with these schemas.
import * as z from 'zod';

import { FULL_NAME_MAX_LENGTH, GRANT_CATEGORIES, GRANT_CATEGORY_MESSAGE, LEDGER_KINDS, PLAN_REQUEST_STATUSES, SELF_SIGNUP_ROLES, TALENT_ACCESS } from './account-values';
import { APPLICATION_STATUSES, EXCLUDABLE_INDUSTRIES } from './founding-values';
import { PLAN_IDS } from './plans';
import { TALENT_STATUSES } from './talent-values';

export { ROLE_ATTRIBUTE, SELF_SIGNUP_ROLES } from './account-values';

const Iso = z.iso.datetime();
const Credits = z.number().int();

export const Role = z.enum(SELF_SIGNUP_ROLES);
export const PlanIdSchema = z.enum(PLAN_IDS, { error: `plan must be one of ${PLAN_IDS.join(', ')}` });

/** An account's profile (docs/product.md#accounts): one per user, keyed by the user's id (Cognito `sub`). */
export const Profile = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  createdAt: Iso,
});
export type Profile = z.infer<typeof Profile>;

/**
 * One line of a client's credit ledger. `credits` is the change to the spendable balance
 * (a grant or a release adds, a reserve takes away, a commit makes a reserve final and changes
 * nothing); `balanceAfter` is the balance once the entry was written.
 */
export const LedgerEntry = z.object({
  id: z.string(),
  kind: z.enum(LEDGER_KINDS),
  credits: Credits,
  balanceAfter: Credits.nonnegative(),
  /** Why, in words a client understands ("Free plan credits", the admin's reason). */
  reason: z.string(),
  at: Iso,
  /** The admin who granted these credits, by email (admin grants only). */
  by: z.string().optional(),
  /** That admin's Cognito `sub` (the console's view only). */
  bySub: z.string().optional(),
  /** The generation a reserve, commit or release belongs to. */
  generationId: z.string().optional(),
  /** When a grant's credits stop being spendable (plan credits; decision 043). */
  expiresAt: Iso.optional(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const PlanRequest = z.object({
  id: z.string(),
  plan: PlanIdSchema,
  status: z.enum(PLAN_REQUEST_STATUSES),
  requestedAt: Iso,
  decidedAt: Iso.optional(),
});
export type PlanRequest = z.infer<typeof PlanRequest>;

/** A talent account's likeness in the catalog, once its application was accepted. */
export const Likeness = z.object({
  talentId: z.string(),
  name: z.string(),
  status: z.enum(TALENT_STATUSES),
  founding: z.boolean(),
  /** Industries the talent's likeness may not be used for; applies to generations from now on. */
  excludedIndustries: z.array(z.enum(EXCLUDABLE_INDUSTRIES)),
});
export type Likeness = z.infer<typeof Likeness>;

export const TalentStanding = z.object({
  access: z.enum(TALENT_ACCESS),
  /** The application under the account's confirmed email, if any. */
  application: z.object({ id: z.string(), status: z.enum(APPLICATION_STATUSES), submittedAt: Iso }).optional(),
  likeness: Likeness.optional(),
});
export type TalentStanding = z.infer<typeof TalentStanding>;

/** `GET /me`: the signed-in person's account. Clients get plan and credits; talent get their standing. */
export const MeResponse = z.object({
  profile: Profile,
  role: Role,
  plan: z.object({ id: PlanIdSchema, name: z.string() }).optional(),
  credits: z.object({ balance: Credits.nonnegative() }).optional(),
  /** The client's latest plan change request, while it waits for an admin. */
  planRequest: PlanRequest.optional(),
  talent: TalentStanding.optional(),
});
export type MeResponse = z.infer<typeof MeResponse>;

export const FullName = z
  .string({ error: 'full_name must be text' })
  .trim()
  .min(1, { error: 'Enter your full name.' })
  .max(FULL_NAME_MAX_LENGTH, { error: `full_name must be at most ${FULL_NAME_MAX_LENGTH} characters` });

/** `PATCH /me`: the changed profile fields. Answers the profile. */
export const UpdateMeRequest = z.strictObject({ full_name: FullName });
export type UpdateMeRequest = z.infer<typeof UpdateMeRequest>;

/** `GET /me/ledger?limit=&cursor=`: newest first, one page. */
export const LedgerQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(500).optional(),
});
export const LedgerPage = z.object({ entries: z.array(LedgerEntry), nextCursor: z.string().optional() });
export type LedgerPage = z.infer<typeof LedgerPage>;


/** `PATCH /me/likeness`: an accepted talent's excluded industries. Answers the likeness. */
export const UpdateLikenessRequest = z.strictObject({
  excludedIndustries: z
    .array(z.enum(EXCLUDABLE_INDUSTRIES, { error: `excluded industries are ${EXCLUDABLE_INDUSTRIES.join(', ')}` }))
    .max(EXCLUDABLE_INDUSTRIES.length),
});

// ---- Review console: Users ------------------------------------------------------------------

export const AUDIT_ACTIONS = ['plan-changed', 'credits-granted', 'disabled', 'enabled', 'plan-request-declined'] as const;

/** One change an admin made to an account: who, when, what. Append-only. */
export const AuditEntry = z.object({
  at: Iso,
  by: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  detail: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** `GET /admin/users?q=&role=&plan=&planRequest=pending&offset=&limit=&order=`: `q` searches email. */
export const AdminUserQuery = z.object({
  q: z.string().trim().max(200).optional(),
  role: Role.optional(),
  plan: PlanIdSchema.optional(),
  planRequest: z.literal('pending').optional(),
  order: z.enum(['ASC', 'DESC']).default('DESC'),
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().positive().max(500).default(25),
});

export const AdminUserSummary = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string(),
  role: Role,
  /** Clients only. */
  plan: PlanIdSchema.optional(),
  balance: Credits.nonnegative().optional(),
  disabled: z.boolean(),
  createdAt: Iso,
  /** A pending plan change request, if any. */
  planRequest: PlanRequest.optional(),
  /** `stripe` while a Stripe subscription sets the plan; absent when an admin sets it (clients only). */
  billing: z.literal('stripe').optional(),
  /** The latest sign-in (recorded since sign-ins are; the Free plan's monthly credits need one). */
  lastSignInAt: Iso.optional(),
});
export type AdminUserSummary = z.infer<typeof AdminUserSummary>;

/** `GET /admin/users/{id}`: the summary, the latest ledger entries and every admin change. */
export const AdminUserDetail = AdminUserSummary.extend({
  ledger: z.array(LedgerEntry),
  audit: z.array(AuditEntry),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetail>;

/** `PATCH /admin/users/{id}`: set a client's plan (answers the detail). */
export const AdminSetPlanRequest = z.strictObject({ plan: PlanIdSchema });

export const MAX_ADMIN_GRANT = 10_000;
/**
 * `POST /admin/users/{id}/credits` (with an Idempotency-Key): a grant with its reason's category
 * and text, named after the admin. A `testing` grant earns talent nothing (decision 036).
 */
export const AdminGrantRequest = z.strictObject({
  credits: z
    .number({ error: 'credits must be a whole number' })
    .int({ error: 'credits must be a whole number' })
    .min(1, { error: 'credits must be at least 1' })
    .max(MAX_ADMIN_GRANT, { error: `credits must be at most ${MAX_ADMIN_GRANT}` }),
  category: z.enum(GRANT_CATEGORIES, { error: GRANT_CATEGORY_MESSAGE }),
  reason: z.string({ error: 'reason must be text' }).trim().min(3, { error: 'Give a reason of at least 3 characters.' }).max(200),
});

/** `POST /admin/users/{id}/disable` and `/enable`: the reason is recorded in the audit. */
export const AdminAccountStateRequest = z.strictObject({ reason: z.string().trim().max(200).optional() });
