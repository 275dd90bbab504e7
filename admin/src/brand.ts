/**
 * The product's public name. Change it here and the console's titles follow.
 * (index.html carries the same words for the first paint, before scripts run.)
 */
export const BRAND_NAME = 'Humanly';

/** Title of the admin console: app bar, login card and document title. */
export const CONSOLE_TITLE = `${BRAND_NAME} review console`;

/** Brand colours, taken from the shared favicon's gradient. */
export const BRAND_COLORS = {
  plum: '#7e2a6b',
  ember: '#c2410c',
} as const;

/** Backdrop of the full-page cards (sign-in, no access). */
export const BRAND_BACKDROP = `radial-gradient(circle at 50% 14em, ${BRAND_COLORS.plum} 0%, #2f0e29 65%, #1f0a1b 100%)`;
