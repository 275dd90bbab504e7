import { BRAND_NAME, LAUNCH_YEAR, PRELAUNCH_TAGLINE } from '../brand';

/**
 * What search engines and link previews see for each public route: the build (`web/scripts/prerender.ts`)
 * writes these into every page's <head>, draws its social card from `card` and lists it in sitemap.xml.
 *
 * Build-time only: the browser bundle never imports this file (it would cost every page the
 * descriptions of all the others). The document title a visitor sees comes from the page itself
 * (`usePageTitle`), and the build records that same title, so the two cannot drift; `title` here is
 * for pages that are not prerendered.
 */
export interface RouteMeta {
  /** Document title for pages the build does not render (mode 'client'); rendered pages set their own. */
  title?: string;
  /** 120-160 characters: shown under the link in search results and in share previews. */
  description: string;
  /** The social card (1200x630, `web/public/social/<card.file>.png`), drawn by `npm run social-cards`. */
  card: { file: string; kicker: string; headline: string; accent: 'coral' | 'plum' | 'teal' };
  /**
   * 'page': rendered at build time and hydrated in the browser (the default).
   * 'client': only the <head> is prerendered; the page renders in the browser, because what it shows
   * depends on the query string or the visitor (a build-time render would flash the wrong content).
   */
  mode?: 'page' | 'client';
  /** Listed in sitemap.xml and open to indexing (default true). */
  indexable?: boolean;
}

export const DEFAULT_DESCRIPTION = `${BRAND_NAME} is an ethical AI image marketplace: real people license their likeness with consent and earn royalties, and creators make commercially licensed images. Launching ${LAUNCH_YEAR}.`;

const prelaunchCard = { file: 'home', kicker: `Launching ${LAUNCH_YEAR}`, headline: PRELAUNCH_TAGLINE, accent: 'coral' } as const;
const creatorsCard = { file: 'first-200', kicker: 'Join the First 200', headline: 'Early access to ethical AI images of real people', accent: 'coral' } as const;
const foundingCard = { file: 'founding-talent', kicker: 'Founding talent', headline: 'Earn 35% royalties on your likeness, for life', accent: 'plum' } as const;
const talentCard = { file: 'talent', kicker: 'Become talent', headline: 'License your likeness. Get paid every month.', accent: 'plum' } as const;
const legalCard = { file: 'legal', kicker: BRAND_NAME, headline: 'Consent first. Fair pay. Transparency.', accent: 'teal' } as const;
const photoGuideCard = { file: 'photo-guide', kicker: 'Photo guide', headline: 'How to take great training photos', accent: 'teal' } as const;

/** Keyed by path, exactly as the route table spells it (no trailing slash). */
export const ROUTE_META: Record<string, RouteMeta> = {
  '/': { description: DEFAULT_DESCRIPTION, card: prelaunchCard },
  '/home-preview': {
    description: `Create commercially licensed AI images of real people who consented and earn royalties on every image. Browse talent, describe the shot, publish with confidence.`,
    card: { file: 'home-preview', kicker: BRAND_NAME, headline: 'Ethical AI Starts with You', accent: 'coral' },
  },
  '/first-200': {
    description: `Join the First 200 and lock in early access to ${BRAND_NAME}, the ethical AI image marketplace launching ${LAUNCH_YEAR}: licensed images of real, consenting people. Free to join.`,
    card: creatorsCard,
  },
  '/founding-talent-application': {
    description: `License your likeness with consent and earn 35% royalties for life. Only 30 founding talent spots, only before launch, and applying is free.`,
    card: foundingCard,
  },
  '/ethos': {
    description: `Why ${BRAND_NAME} exists: an AI image marketplace where consent, fair pay and transparency come first, and the people behind every likeness get paid.`,
    card: { file: 'ethos', kicker: `Why ${BRAND_NAME} exists`, headline: 'The future of AI is human', accent: 'plum' },
  },
  '/pricing': {
    description: `Simple credit pricing for licensed AI images: 1 credit is 1 image. Start free with 10 credits, or choose Starter, Pro or Enterprise. Commercial licence included.`,
    card: { file: 'pricing', kicker: 'Pricing', headline: 'Start free. Every plan includes a commercial licence.', accent: 'coral' },
  },
  '/contact': {
    description: `Questions about ${BRAND_NAME}, licensing your likeness or creating with real talent? Send us a message; we typically reply within 24 hours.`,
    card: legalCard,
  },
  '/privacy': { description: `How ${BRAND_NAME} collects, uses and protects your personal data, your likeness and your training photos.`, card: legalCard },
  '/terms': { description: `The terms for using ${BRAND_NAME}: accounts, credits, licences for generated images, and the rights of the talent behind them.`, card: legalCard },
  '/talent-application': {
    description: `Apply to license your likeness on ${BRAND_NAME} and earn royalties every month: 20% on your first 50 licences, 25% up to 200, 30% beyond.`,
    card: talentCard,
  },
  '/training-image-best-practices': {
    description: `How to take the 30-50 photos that train a great likeness model: lighting, angles, expressions, outfits and what to avoid.`,
    card: photoGuideCard,
  },
  '/training-image-best-practices-founders': {
    description: `The photo guide for founding talent: how to take the 30-80 training photos for your application, with lighting, angle and variety tips.`,
    card: photoGuideCard,
  },
  '/founding-talent-contact': {
    description: `Questions about becoming founding talent at ${BRAND_NAME}? Get in touch; we typically reply within 24 hours.`,
    card: foundingCard,
  },
  '/founding-talent-privacy': { description: `How ${BRAND_NAME} handles founding talent applications, photos and personal data.`, card: foundingCard },
  '/founding-talent-terms': { description: `The terms for founding talent applications at ${BRAND_NAME}: eligibility, photos, review and the 35% lifetime royalty.`, card: foundingCard },
  '/founding/identity': {
    title: 'Confirm it is you',
    description: `After confirming the email of a talent application: the answer on face data, the signed consent and the ID verified by Stripe.`,
    card: foundingCard,
    mode: 'client',
    indexable: false,
  },
  '/founding/photos': {
    title: 'Replace your photos',
    description: `Replace the photos of a talent application that cannot be used for training, through the link we emailed.`,
    card: foundingCard,
    mode: 'client',
    indexable: false,
  },
  '/pre-launch-contact': {
    description: `Questions about ${BRAND_NAME}, the waitlist or founding talent? Email us; we typically reply within 24 hours.`,
    card: prelaunchCard,
  },
  '/pre-launch-privacy': { description: `How ${BRAND_NAME} uses what you share on our pre-launch pages: your waitlist spot, your application and the updates you asked for.`, card: prelaunchCard },
  '/pre-launch-terms': { description: `The terms for joining the ${BRAND_NAME} waitlist: free, no commitment, spots offered in the order people sign up.`, card: prelaunchCard },
  '/portal': {
    description: `Sign in to ${BRAND_NAME}: the client portal to create licensed images, or the talent portal to manage your likeness and royalties.`,
    card: legalCard,
    indexable: false,
  },
  '/client-portal': {
    description: `The ${BRAND_NAME} client portal: your credits, your licensed images and your account.`,
    card: legalCard,
    indexable: false,
  },
  '/checkout': {
    description: `Subscribe to a ${BRAND_NAME} plan: you continue to secure checkout, then back to your client portal.`,
    card: legalCard,
    indexable: false,
  },
  '/talent-portal': {
    description: `The ${BRAND_NAME} talent portal: your likeness, your licences and your monthly royalties.`,
    card: talentCard,
    indexable: false,
  },
  '/sign-in': {
    description: `Sign in to your ${BRAND_NAME} account: the client portal for licensed images and credits, or the talent portal for your likeness and royalties.`,
    card: legalCard,
    indexable: false,
  },
  '/sign-up': {
    description: `Create a ${BRAND_NAME} account as a client, to generate licensed images of real, consenting people, or as talent, to license your likeness.`,
    card: legalCard,
    indexable: false,
  },
  '/confirm-sign-up': {
    description: `Confirm the email address of your new ${BRAND_NAME} account with the 6-digit code we sent you, then continue to your portal.`,
    card: legalCard,
    indexable: false,
  },
  '/reset-password': {
    description: `Forgot your ${BRAND_NAME} password? Get a code by email, choose a new password and continue to your client or talent portal.`,
    card: legalCard,
    indexable: false,
  },
  '/talent': {
    description: `Browse real, verified people who license their likeness on ${BRAND_NAME}, and create commercially licensed AI images with the talent that fits your brand.`,
    card: { file: 'talent-library', kicker: 'Talent library', headline: 'Real people. Real consent. Licensed images.', accent: 'teal' },
  },
  '/create': {
    description: `Create commercially licensed AI images of a real, consenting person: choose talent, describe the shot, pick a style.`,
    card: { file: 'create', kicker: 'Create', headline: 'Create ethical AI images', accent: 'coral' },
    indexable: false,
  },
  '/licenses/check': {
    description: `Check the license of an image made on ${BRAND_NAME}: drop the file and your browser reads the license inside it. Nothing is uploaded.`,
    card: legalCard,
  },
  '/verify': {
    description: `Verify the Content Credentials (C2PA) of an image made on ${BRAND_NAME}: who made it, that it was made by AI, under which license, and that it was not changed.`,
    card: legalCard,
  },
  '/report': {
    description: `Report an image of a real person that is misused: used without a license, outside it, or intimate without consent. We check it against every image we delivered.`,
    card: legalCard,
  },
  '/thank-you': {
    title: 'Thank you',
    description: DEFAULT_DESCRIPTION,
    card: prelaunchCard,
    mode: 'client',
    indexable: false,
  },
};

/** Every distinct card, for the card generator. */
export function socialCards(): RouteMeta['card'][] {
  const byFile = new Map<string, RouteMeta['card']>();
  for (const meta of Object.values(ROUTE_META)) byFile.set(meta.card.file, meta.card);
  return [...byFile.values()];
}
