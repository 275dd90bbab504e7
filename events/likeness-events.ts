// Domain events of the likeness on our bus (docs/training.md "Removal and erasure",
// docs/identity.md "What is stored").
import * as z from 'zod';

/**
 * `Likeness.Removed`: the likeness schedule carried out a talent's removal after its notice
 * (functions/likeness/triggers/likeness-schedule). Published before the removal is recorded, so
 * one that could not be published is tried again on the next hourly run: a talent may be named
 * more than once, and every consumer is safe to repeat. The training wing deletes the talent's
 * model versions on Replicate and its training files; the founding wing deletes the photos and
 * face data of the application the talent came from.
 */
export const LikenessRemovedV1 = z.object({
  version: z.literal(1),
  talentId: z.string().min(1).max(200),
  /** The founding application the talent was accepted from; absent for a seeded talent. */
  applicationId: z.string().min(1).max(100).optional(),
  /** When the schedule carried the removal out. */
  removedAt: z.iso.datetime(),
});
export type LikenessRemovedV1 = z.infer<typeof LikenessRemovedV1>;
export const LIKENESS_REMOVED = 'Likeness.Removed';
