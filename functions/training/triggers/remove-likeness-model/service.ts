// The training wing's part of a likeness removal (docs/training.md "Removal and erasure"): once
// the likeness schedule carried out a talent's removal, every version of their model is deleted
// on Replicate and the training sets and samples from the bucket. The records stay, marked
// deleted, and the model is marked removed, so nothing trains or goes live again.
import type { LikenessRemovedV1 } from '../../../../events/likeness-events';
import { removeLikenessModel, type LikenessModelRemoval, type LikenessModelRemovalDeps } from '../../removal';

/**
 * Consumer of `Likeness.Removed`. Safe to repeat (a second delivery, or the schedule publishing
 * again after a failed run): what is already gone is skipped. A talent without a trained model (a
 * seeded one) has nothing to remove.
 */
export function removeRemovedLikenessModel(deps: LikenessModelRemovalDeps, event: LikenessRemovedV1): Promise<LikenessModelRemoval> {
  return removeLikenessModel(deps, event.talentId, { forget: false });
}
