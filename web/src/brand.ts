/**
 * The product's public name. The specification leaves it blank; change it here and
 * every page, title and share text follows.
 */
export const BRAND_NAME = 'Humanly';

/** The main-site tagline (docs/product.md#brand). */
export const MAIN_TAGLINE = 'Ethical AI Starts with You';

/** The pre-launch tagline (docs/product.md#brand). */
export const PRELAUNCH_TAGLINE = 'The Future of AI is Human';

/** The year the product launches. */
export const LAUNCH_YEAR = 2026;

/** Copyright year shown in the pre-launch footer. */
export const PRELAUNCH_COPYRIGHT_YEAR = 2025;

/** Builds a document title such as "Join the waitlist — Humanly". */
export function pageTitle(title?: string): string {
  return title ? `${title} — ${BRAND_NAME}` : `${BRAND_NAME} — ${PRELAUNCH_TAGLINE}`;
}
