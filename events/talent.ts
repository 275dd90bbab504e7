import * as z from 'zod';

import { ROYALTY_PLANS, TALENT_ID_MAX_LENGTH, TALENT_ID_PATTERN, TALENT_STATUSES } from './talent-values';

export { TALENT_NOT_FOUND_MESSAGE, isTalentId } from './talent-values';

const TalentId = z
  .string({ error: 'id must be a string' })
  .max(TALENT_ID_MAX_LENGTH, { error: `id must be at most ${TALENT_ID_MAX_LENGTH} characters` })
  .regex(TALENT_ID_PATTERN, { error: 'id must be a lowercase slug such as maya-chen' });

/** An image the site can show: a path on the site itself or an https URL. */
const ImageUrl = z
  .string()
  .max(500)
  .regex(/^(\/[\w\-./]+|https:\/\/\S+)$/, { error: 'images must be site paths (/talent/x.svg) or https URLs' });

const fields = {
  id: TalentId,
  name: z.string().trim().min(1).max(100),
  /** Profile image (4:5). */
  image: ImageUrl,
  tagline: z.string().trim().min(1).max(160),
  bio: z.string().trim().min(1).max(2000),
  /** Images generated with this talent's likeness so far. */
  generationCount: z.number().int().nonnegative(),
  featured: z.boolean(),
  tags: z.array(z.string().trim().min(1).max(40)).max(12),
  /** Sample images (1:1) for the profile's gallery. */
  samples: z.array(ImageUrl).max(12),
  founding: z.boolean(),
  royaltyPlan: z.enum(ROYALTY_PLANS),
};

const foundingPaysFounding = (t: { founding: boolean; royaltyPlan: string }) =>
  t.founding === (t.royaltyPlan === 'founding-35');
const foundingMessage = { error: 'founding talent, and only they, are on the founding-35 royalty plan', path: ['royaltyPlan'] };

/** A talent as the catalog table stores it (and as `infra/seed/talent.json` lists them). */
export const Talent = z
  .object({ ...fields, status: z.enum(TALENT_STATUSES) })
  .strict()
  .refine(foundingPaysFounding, foundingMessage);
export type Talent = z.infer<typeof Talent>;

/** A talent as the public API shows it: active ones only, so no status. */
export const PublicTalent = z.object(fields).refine(foundingPaysFounding, foundingMessage);
export type PublicTalent = z.infer<typeof PublicTalent>;

/** `GET /talent`: every active talent, most generated first (the site filters and sorts). */
export const TalentListResponse = z.object({ talent: z.array(PublicTalent) });
export type TalentListResponse = z.infer<typeof TalentListResponse>;

/** `GET /talent/{id}`. */
export const TalentResponse = z.object({ talent: PublicTalent });
export type TalentResponse = z.infer<typeof TalentResponse>;
