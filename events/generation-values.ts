/**
 * Plain values of generation and licensing (docs/generation.md), free of zod so the browser's
 * create page imports them without the validation library. Spec 2 (/create), 4, 8 and 9.
 */
import type { ExcludableIndustry } from './founding-values';

/** The create page's style badges, in order; the first is the default. */
export const STYLES = ['Photorealistic', 'Portrait', 'Commercial', 'Editorial', 'Creative', 'Lifestyle'] as const;
export type Style = (typeof STYLES)[number];
export const DEFAULT_STYLE: Style = 'Photorealistic';

/** Images per generation; 1 credit = 1 image (spec 9). */
export const MIN_IMAGES = 1;
export const MAX_IMAGES = 4;
export const DEFAULT_IMAGES = 4;
export const PROMPT_MAX_LENGTH = 1000;

/** spec 9. */
export const ASPECT_RATIO = '1:1';
export const POLL_INTERVAL_MS = 5000;
export const POLL_MAX_ATTEMPTS = 60;

/** The prompt a generation sends: the user's prompt plus ', {style} style' (spec 7). */
export function styledPrompt(prompt: string, style: Style): string {
  return `${prompt.trim()}, ${style} style`;
}

/**
 * A generation's status. `queued` until the workflow has reserved credits and passed the policy
 * check; `starting`/`processing` mirror Replicate's; `succeeded` (images delivered and
 * licensed), `failed` (with a message) and `canceled` are final.
 */
export const GENERATION_STATUSES = ['queued', 'starting', 'processing', 'succeeded', 'failed', 'canceled'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];
export const FINAL_STATUSES: readonly GenerationStatus[] = ['succeeded', 'failed', 'canceled'];

/**
 * Why a generation failed, for the browser to choose its words (the message is shown as well):
 * `insufficient-credits` links to pricing, `policy` explains the talent's choice.
 */
export const FAILURE_CODES = ['insufficient-credits', 'policy', 'prediction-failed', 'timed-out', 'canceled', 'error'] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** spec 8: the create page's toasts. */
export const GENERATION_FAILED_TOAST = (message: string) => `Generation failed: ${message}`;
export const IMAGE_GENERATION_FAILED = 'Image generation failed';
export const GENERATION_TIMED_OUT = 'Generation timed out';

/** Messages of the workflow's refusals, read by people on the create page and the portal. */
export const TALENT_UNAVAILABLE_MESSAGE = 'This talent is not available for new generations.';
export const TALENT_PAUSED_MESSAGE = 'This talent has paused new generations of their likeness.';
export const TALENT_REMOVED_MESSAGE = 'This talent has removed their likeness from the marketplace.';
export const TALENT_FROZEN_MESSAGE = 'This likeness is under an exclusive contract with another brand.';
export const TALENT_NOT_CONFIGURED_MESSAGE = 'This talent cannot be generated yet: their model is not set up.';
export const excludedIndustryMessage = (industry: ExcludableIndustry) =>
  `This talent does not allow their likeness to be used for ${INDUSTRY_LABELS[industry]}. Change the prompt and try again.`;
export const PREDICTION_FAILED_MESSAGE = 'The image model could not generate these images.';
export const TIMED_OUT_MESSAGE = 'The image model did not finish in time. Your credits were returned.';

export const INDUSTRY_LABELS: Record<ExcludableIndustry, string> = {
  religion: 'religion',
  politics: 'politics',
  alcohol: 'alcohol',
};

/** Every license grants this scope (spec 9: all plans include a commercial-use licence). */
export const LICENSE_SCOPE = 'commercial';
export const LICENSE_SCOPE_TEXT = 'Commercial use: advertising, marketing, editorial and social media, worldwide, without time limit.';

/** IPTC's DigitalSourceType for images made by a model trained on sampled content. */
export const IPTC_TRAINED_ALGORITHMIC_MEDIA = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';
/** Our XMP namespace for the license fields written into every delivered image. */
export const XMP_NAMESPACE = 'https://humanly.example/ns/license/1.0/';

/** A license id: 'lic_' and 22 base64url characters (derived from the random generation id). */
export const LICENSE_ID_PATTERN = /^lic_[A-Za-z0-9_-]{22}$/;
/** A generation id: a random UUID. */
export const GENERATION_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The public page that confirms a license. */
export const licensePath = (licenseId: string) => `/licenses/${licenseId}`;
/** The page where anyone drops an image to read its license. */
export const LICENSE_CHECK_PATH = '/licenses/check';

/** Generations a client may start per minute and per day (the credits limit the rest). */
export const GENERATIONS_PER_MINUTE = 10;
export const GENERATIONS_PER_DAY = 500;

/**
 * Words that put a prompt within an excluded industry (whole words, any case, plurals
 * included). Deliberately specific: "campaign" or "party" alone are everyday advertising words,
 * so politics needs "political party" or "election campaign".
 */
export const INDUSTRY_TERMS: Record<ExcludableIndustry, readonly string[]> = {
  religion: [
    'religion', 'religious', 'church', 'mosque', 'temple', 'synagogue', 'cathedral', 'chapel', 'prayer', 'pray', 'praying',
    'worship', 'bible', 'quran', 'koran', 'torah', 'priest', 'pastor', 'imam', 'rabbi', 'monk', 'nun', 'jesus', 'christ',
    'allah', 'buddha', 'baptism', 'crucifix', 'rosary', 'sermon', 'gospel', 'hijab', 'saint',
  ],
  politics: [
    'politics', 'political', 'politician', 'election', 'elections', 'vote', 'voting', 'voter', 'ballot', 'candidate',
    'senator', 'congress', 'congressman', 'parliament', 'president', 'presidential', 'governor', 'mayor', 'democrat',
    'republican', 'government', 'protest', 'political party', 'election campaign', 'campaign rally', 'manifesto', 'referendum',
  ],
  alcohol: [
    'alcohol', 'alcoholic', 'beer', 'wine', 'whisky', 'whiskey', 'vodka', 'gin', 'rum', 'tequila', 'cocktail', 'champagne',
    'liquor', 'brewery', 'pub', 'booze', 'bourbon', 'brandy', 'cider', 'sake', 'margarita', 'martini', 'prosecco', 'lager',
    'ale', 'mezcal', 'spirits', 'winery', 'sommelier',
  ],
};

const termPattern = (term: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${term.replace(/ /g, '\\s+')}(e?s)?(?=$|[^\\p{L}\\p{N}])`, 'iu');
const INDUSTRY_PATTERNS = Object.fromEntries(
  Object.entries(INDUSTRY_TERMS).map(([industry, terms]) => [industry, terms.map(termPattern)]),
) as Record<ExcludableIndustry, RegExp[]>;

/** The first of `excluded` that the prompt falls within, or undefined. */
export function excludedIndustryOf(prompt: string, excluded: readonly ExcludableIndustry[]): ExcludableIndustry | undefined {
  return excluded.find((industry) => INDUSTRY_PATTERNS[industry].some((re) => re.test(prompt)));
}
