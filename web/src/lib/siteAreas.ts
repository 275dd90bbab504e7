/**
 * The site's three layouts each have their own contact and legal pages (docs/product.md#layouts). Pages
 * shared between layouts link to their own layout's siblings, so a visitor never jumps layout.
 */
export type SiteArea = 'main' | 'founding' | 'prelaunch';

export interface AreaLinks {
  contact: string;
  privacy: string;
  terms: string;
  /** Where the page's back link leads, if it has one. */
  back?: { to: string; label: string };
}

export const AREA_LINKS: Record<SiteArea, AreaLinks> = {
  main: { contact: '/contact', privacy: '/privacy', terms: '/terms' },
  founding: {
    contact: '/founding-talent-contact',
    privacy: '/founding-talent-privacy',
    terms: '/founding-talent-terms',
    back: { to: '/founding-talent-application', label: 'Back to the founding application' },
  },
  prelaunch: {
    contact: '/pre-launch-contact',
    privacy: '/pre-launch-privacy',
    terms: '/pre-launch-terms',
    back: { to: '/first-200', label: 'Back to the waitlist' },
  },
};

/** 'Last updated' dates of the legal pages (docs/product.md#routes). */
export const LEGAL_LAST_UPDATED: Record<SiteArea, string> = {
  main: 'October 2024',
  founding: 'October 2024',
  prelaunch: 'December 2024',
};
