/**
 * Plain values of the talent catalog contract, free of zod so the browser can import them
 * without the validation library.
 */

/** A talent id is a URL slug: lowercase letters and digits in hyphen-separated words. */
export const TALENT_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const TALENT_ID_MAX_LENGTH = 64;

/** The body text of `GET /talent/{id}`'s 404, and the profile page's heading for it. */
export const TALENT_NOT_FOUND_MESSAGE = 'Model not found';

/**
 * How a talent is paid (docs/product.md#royalties): founding talent earn 35% for life; everyone else
 * earns the standard tiers, applied marginally per calendar month.
 */
export const ROYALTY_PLANS = ['founding-35', 'standard-tiers'] as const;

export const TALENT_STATUSES = ['active', 'hidden'] as const;

/** Seconds browsers and CDNs may reuse a catalog response: short, so edits show within a minute. */
export const TALENT_CACHE_SECONDS = 60;

export function isTalentId(value: string): boolean {
  return value.length <= TALENT_ID_MAX_LENGTH && TALENT_ID_PATTERN.test(value);
}
