// Generation and licensing API (docs/generation.md): `POST /generations`, `GET /generations/{id}`,
// the spec's `replicate-image-generation` function, the client's history, licenses (public
// confirmation, downloads), the talent's usage and the console's Generations resource. Web,
// admin and functions all parse with these schemas.
import * as z from 'zod';

import { EXCLUDABLE_INDUSTRIES } from './founding-values';
import {
  ASPECT_RATIO,
  FAILURE_CODES,
  GENERATION_STATUSES,
  LICENSE_SCOPE,
  MAX_IMAGES,
  MIN_IMAGES,
  PROMPT_MAX_LENGTH,
  STYLES,
} from './generation-values';
import { TALENT_ID_MAX_LENGTH, TALENT_ID_PATTERN } from './talent-values';
import { REPLICATE_VERSION_ID } from './replicate-values';

const Iso = z.iso.datetime();
const TalentId = z
  .string({ error: 'talentId must be a string' })
  .max(TALENT_ID_MAX_LENGTH, { error: 'talentId is too long' })
  .regex(TALENT_ID_PATTERN, { error: 'talentId must be a talent id such as maya-chen' });
const Prompt = z
  .string({ error: 'prompt must be a string' })
  .trim()
  .min(1, { error: 'Write a prompt describing the image.' })
  .max(PROMPT_MAX_LENGTH, { error: `The prompt must be at most ${PROMPT_MAX_LENGTH} characters.` });

export const StyleSchema = z.enum(STYLES, { error: `style must be one of ${STYLES.join(', ')}` });
export const ImageCount = z
  .number({ error: 'count must be a number' })
  .int({ error: 'count must be a whole number' })
  .min(MIN_IMAGES, { error: `count must be between ${MIN_IMAGES} and ${MAX_IMAGES}` })
  .max(MAX_IMAGES, { error: `count must be between ${MIN_IMAGES} and ${MAX_IMAGES}` });

/** `POST /generations` (client). Answered 202 with `GenerationStarted`. An Idempotency-Key header makes a retry one generation. */
export const StartGenerationRequest = z
  .object({ talentId: TalentId, prompt: Prompt, style: StyleSchema, count: ImageCount })
  .strict();
export type StartGenerationRequest = z.infer<typeof StartGenerationRequest>;

export const GenerationStarted = z.object({ id: z.string(), status: z.enum(GENERATION_STATUSES) });
export type GenerationStarted = z.infer<typeof GenerationStarted>;

/**
 * The spec's function (`POST /functions/v1/replicate-image-generation`, client): a start
 * `{prompt: '<prompt>, <style> style', aspectRatio: '1:1', talentId}` answered `{id}`, or a
 * poll `{predictionId}` answered `LegacyPoll`. `count` is ours (default 4).
 */
export const LegacyStart = z
  .object({
    prompt: Prompt,
    aspectRatio: z.literal(ASPECT_RATIO, { error: `aspectRatio must be ${ASPECT_RATIO}` }).default(ASPECT_RATIO),
    talentId: TalentId,
    count: ImageCount.optional(),
  })
  .strict();
export const LegacyPollRequest = z.object({ predictionId: z.string().min(1).max(100) }).strict();
/** `status`: succeeded, failed, or anything else while running; `output`: the image URLs once succeeded. */
export const LegacyPoll = z.object({
  status: z.string(),
  output: z.union([z.array(z.string()), z.string(), z.null()]),
  error: z.string().optional(),
});
export type LegacyPoll = z.infer<typeof LegacyPoll>;

/** One delivered image: its license, and short-lived URLs to show and download it (owner and admins). */
export const GenerationImage = z.object({
  index: z.number().int().nonnegative(),
  licenseId: z.string(),
  /** A presigned view URL (minutes), for the page's <img>. */
  url: z.string(),
});
export type GenerationImage = z.infer<typeof GenerationImage>;

/** One step of the workflow, as the generation records it (the console's detail shows them). */
export const GenerationStep = z.object({ step: z.string(), at: Iso, detail: z.string().optional() });

/** `GET /generations/{id}` (owner) and the history's items. */
export const Generation = z.object({
  id: z.string(),
  talentId: z.string(),
  talentName: z.string(),
  prompt: z.string(),
  style: StyleSchema,
  count: z.number().int(),
  status: z.enum(GENERATION_STATUSES),
  createdAt: Iso,
  updatedAt: Iso,
  /** Credits taken for the generation: one per image delivered, each committed with its license (a failure part-way keeps those). */
  creditsSpent: z.number().int().nonnegative(),
  images: z.array(GenerationImage),
  failure: z.object({ code: z.enum(FAILURE_CODES), message: z.string() }).optional(),
  /**
   * While the start waits for admission under Replicate's creation limit (decision 065): its place
   * in the queue (1 = next, as the queue stands now; starts of other clients can come before it,
   * the queue is served in turn across clients) and since when it waits.
   */
  queue: z.object({ position: z.number().int().positive(), since: Iso }).optional(),
});
export type Generation = z.infer<typeof Generation>;

/** `GET /me/generations` (client), newest first. */
export const GenerationPage = z.object({ generations: z.array(Generation), nextCursor: z.string().optional() });
export type GenerationPage = z.infer<typeof GenerationPage>;

/** `GET /admin/generations/{id}`: the generation with what only the console sees. */
export const AdminGeneration = Generation.extend({
  accountId: z.string(),
  clientEmail: z.string(),
  predictionId: z.string().optional(),
  executionName: z.string(),
  steps: z.array(GenerationStep),
  creditsReserved: z.number().int().nonnegative(),
  /** When the client's data was erased (decision 035): email, name and prompt are blank, the images deleted. */
  erasedAt: Iso.optional(),
});
export type AdminGeneration = z.infer<typeof AdminGeneration>;

/**
 * The public confirmation of a license (`GET /licenses/{id}`): never the prompt. `image` says
 * whether the licensed image is kept (its thumbnail at `GET /licenses/{id}/thumbnail`) or was
 * erased with the licensee's data (decision 035): the license stays valid either way.
 */
export const PublicLicense = z.object({
  id: z.string(),
  talentId: z.string(),
  talentName: z.string(),
  licensee: z.string(),
  issuedAt: Iso,
  scope: z.literal(LICENSE_SCOPE),
  style: StyleSchema,
  image: z.enum(['stored', 'erased']),
  /** When a reviewer revoked the license after a report (decision 058), and the public reason. */
  revokedAt: Iso.optional(),
  revokedReason: z.string().optional(),
  /** The image is withheld (no thumbnail, no download) while an intimate-image report about it waits for a reviewer. */
  withheld: z.boolean().optional(),
});
export type PublicLicense = z.infer<typeof PublicLicense>;

/** `GET /licenses/{id}/download` (owner) and `GET /admin/licenses/{id}/download`. */
export const LicenseDownload = z.object({ url: z.string(), filename: z.string(), expiresAt: Iso });
export type LicenseDownload = z.infer<typeof LicenseDownload>;

/** `GET /me/likeness-usage` (accepted talent): images made with the likeness, by UTC month, newest first. */
export const LikenessUsage = z.object({
  talentId: z.string(),
  total: z.number().int().nonnegative(),
  months: z.array(z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), images: z.number().int().nonnegative() })),
});
export type LikenessUsage = z.infer<typeof LikenessUsage>;

/**
 * A talent's generation config (`PUT /admin/talent/{id}/generation-config`): a Replicate model
 * (`owner/name`) or version id, and the trigger word the model was trained with.
 */
export const GenerationConfig = z
  .object({
    model: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*$/i, { error: 'model must be a Replicate model such as owner/name' })
      .optional(),
    version: z
      .string()
      .regex(REPLICATE_VERSION_ID, { error: 'version must be a Replicate version id (64 hexadecimal characters)' })
      .optional(),
    triggerWord: z.string().trim().min(1, { error: 'triggerWord is required' }).max(40).regex(/^[\w-]+$/, { error: 'triggerWord must be one word' }),
  })
  .strict()
  .refine((c) => Boolean(c.model) !== Boolean(c.version), { error: 'Give a model or a version, not both', path: ['model'] });
export type GenerationConfig = z.infer<typeof GenerationConfig>;

/**
 * An exclusive contract (docs/royalties.md#exclusive-contracts): only the brand's client account
 * may generate with the talent from `startsAt` until `until`; the talent leaves the public library
 * and cannot remove their likeness meanwhile.
 */
export const ExclusiveContract = z.object({
  id: z.string(),
  /** The brand: a client account. */
  accountId: z.string(),
  /** The brand's name as the talent's portal and emails show it. */
  brandName: z.string(),
  startsAt: Iso,
  until: Iso,
  recordedBy: z.string(),
  recordedAt: Iso,
  /** When the talent was told it started (the likeness schedule sends it once). */
  startNotifiedAt: Iso.optional(),
});
export type ExclusiveContract = z.infer<typeof ExclusiveContract>;

/**
 * Likeness controls stored on the catalog item beside the public fields, never in a catalog
 * answer: the talent's excluded industries, pause and removal; an admin's generation config and
 * exclusive contract; and the application the talent came from (for their emails).
 */
export const LikenessControls = z.object({
  excludedIndustries: z.array(z.enum(EXCLUDABLE_INDUSTRIES)).optional(),
  generation: GenerationConfig.optional(),
  paused: z.boolean().optional(),
  /** A removal the talent requested: it takes effect at `effectiveAt` unless cancelled before. */
  removal: z.object({ requestedAt: Iso, effectiveAt: Iso }).optional(),
  /** When the removal took effect; the talent can no longer be generated. */
  removedAt: Iso.optional(),
  /** An exclusive contract: only `accountId` may generate until `until`. `frozen` is the attribute's stored name. */
  frozen: ExclusiveContract.partial().required({ accountId: true, until: true }).optional(),
  /** The founding application the talent was accepted from (their email for notices). */
  applicationId: z.string().optional(),
});
export type LikenessControls = z.infer<typeof LikenessControls>;

/** `GET /me/generations?cursor=`: the cursor the previous page answered. */
export const GenerationListQuery = z.object({ cursor: z.string().max(1000, { error: 'cursor is not one this list gave out' }).optional() });

/**
 * `GET /admin/generations?status=&talentId=&accountId=&sort=createdAt&order=&offset=&limit=`:
 * the console's Generations list, answered `{items: AdminGeneration[], total}` like its other lists.
 */
export const AdminGenerationQuery = z
  .object({
    status: z.enum(GENERATION_STATUSES, { error: `status must be one of ${GENERATION_STATUSES.join(', ')}` }).optional(),
    talentId: TalentId.optional(),
    accountId: z
      .string({ error: 'accountId must be a string' })
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: 'accountId must be an account id' })
      .optional(),
    sort: z.enum(['createdAt'], { error: 'sort must be createdAt' }).default('createdAt'),
    order: z.enum(['ASC', 'DESC'], { error: 'order must be ASC or DESC' }).default('DESC'),
    offset: z.coerce.number({ error: 'offset must be a number' }).int().nonnegative({ error: 'offset must be 0 or more' }).default(0),
    limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1, { error: 'limit must be 1 to 200' }).max(200, { error: 'limit must be 1 to 200' }).default(25),
  })
  .strict();
export const AdminGenerationList = z.object({ items: z.array(AdminGeneration), total: z.number().int().nonnegative() });
export type AdminGenerationList = z.infer<typeof AdminGenerationList>;
