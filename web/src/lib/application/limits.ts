import type * as Contract from '../../../../events/founding-values';

/**
 * The contract's numbers the pages print (events/founding-values.ts), as literals: a type-only
 * import keeps that module (and its alert texts) out of the pages' start-up script; it loads
 * with the upload machinery instead. The checks below fail the typecheck if the two drift apart.
 */
export const LIMITS = {
  minImages: 30,
  maxImages: 80,
  minAge: 18,
  spots: 30,
  royaltyPercent: 35,
  reviewTime: '15-20 business days',
} as const;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<typeof LIMITS.minImages, typeof Contract.MIN_APPLICATION_IMAGES> &
  Same<typeof LIMITS.maxImages, typeof Contract.MAX_APPLICATION_IMAGES> &
  Same<typeof LIMITS.minAge, typeof Contract.MIN_APPLICANT_AGE> &
  Same<typeof LIMITS.spots, typeof Contract.FOUNDING_SPOTS> &
  Same<typeof LIMITS.royaltyPercent, typeof Contract.FOUNDING_ROYALTY_PERCENT> &
  Same<typeof LIMITS.reviewTime, typeof Contract.REVIEW_TIME_TEXT>;
