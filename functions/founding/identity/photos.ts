// Which of an application's photos are in its set (docs/identity.md). Kept apart from the face
// checks, so routes that only read the set do not load the face model or the image decoder.
import type { PhotoResult } from '../../../events/founding';

/** The photos in the set now: accepted, stored, not replaced. */
export const setPhotosOf = (results: readonly PhotoResult[]) => results.filter((r) => r.accepted && r.index !== undefined && !r.replacedAt);
