/**
 * Plain values of generation and licensing (docs/generation.md), free of zod so the browser's
 * create page imports them without the validation library. Spec 2 (/create), 4, 8 and 9.
 */
import type { ExcludableIndustry } from './founding-values';

/** The create page's style badges, in order; the first is the default. */
export const STYLES = ['Photorealistic', 'Portrait', 'Commercial', 'Editorial', 'Creative', 'Lifestyle'] as const;
export type Style = (typeof STYLES)[number];
export const DEFAULT_STYLE: Style = 'Photorealistic';

/** Images per generation; 1 credit = 1 image (docs/product.md#pricing). */
export const MIN_IMAGES = 1;
export const MAX_IMAGES = 4;
export const DEFAULT_IMAGES = 4;
export const PROMPT_MAX_LENGTH = 1000;

/** docs/product.md#generation-limits. */
export const ASPECT_RATIO = '1:1';
export const POLL_INTERVAL_MS = 5000;
export const POLL_MAX_ATTEMPTS = 60;

/** The prompt a generation sends: the user's prompt plus ', {style} style' (docs/product.md#create). */
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
export const FAILURE_CODES = ['insufficient-credits', 'policy', 'prediction-failed', 'timed-out', 'canceled', 'busy', 'error'] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** The create page's toasts (docs/product.md#create). */
export const GENERATION_FAILED_TOAST = (message: string) => `Generation failed: ${message}`;
export const IMAGE_GENERATION_FAILED = 'Image generation failed';
export const GENERATION_TIMED_OUT = 'Generation timed out';

/** Messages of the workflow's refusals, read by people on the create page and the portal. */
export const TALENT_UNAVAILABLE_MESSAGE = 'This talent is not available for new generations.';
export const TALENT_PAUSED_MESSAGE = 'This talent has paused new generations of their likeness.';
export const TALENT_REMOVED_MESSAGE = 'This talent has removed their likeness from the marketplace.';
export const TALENT_UNDER_CONTRACT_MESSAGE = 'This likeness is under an exclusive contract with another brand.';
export const TALENT_NOT_CONFIGURED_MESSAGE = 'This talent cannot be generated yet: their model is not set up.';
export const excludedIndustryMessage = (industry: ExcludableIndustry) =>
  `This talent does not allow their likeness to be used for ${INDUSTRY_LABELS[industry]}. Change the prompt and try again.`;
export const PREDICTION_FAILED_MESSAGE = 'The image model could not generate these images.';
export const TIMED_OUT_MESSAGE = 'The image model did not finish in time. Your credits were returned.';

const INDUSTRY_LABELS: Record<ExcludableIndustry, string> = {
  religion: 'religion',
  politics: 'politics',
  alcohol: 'alcohol',
};

/** Every license grants this scope (docs/product.md#pricing: all plans include a commercial-use licence). */
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
export const GENERATIONS_PER_MINUTE_MESSAGE = `You have started ${GENERATIONS_PER_MINUTE} generations in the last minute. Please wait a moment and try again.`;
export const GENERATIONS_PER_DAY_MESSAGE = `You have started ${GENERATIONS_PER_DAY} generations today, the daily limit. Please try again tomorrow.`;

/**
 * Generations of one client that the image model or its safety checker may fail in a UTC day
 * before starts are refused (Replicate bills a failed run; we return the credits). The stage
 * setting `modelFailuresPerDay`; decision 038.
 */
export const DEFAULT_MODEL_FAILURES_PER_DAY = 20;
/** The refusal past that budget: why, and until when (the next 00:00 UTC, `until`). */
export const modelFailuresMessage = (limit: number, until: Date) =>
  `${limit} of your generations failed today because the image model or its safety checks refused them, the daily limit. ` +
  `You can start new generations again at 00:00 UTC on ${until.toISOString().slice(0, 10)}.`;

/** The answers of a generation or license that does not exist (or is not the caller's to see). */
export const GENERATION_NOT_FOUND_MESSAGE = 'Generation not found';
export const LICENSE_NOT_FOUND_MESSAGE = 'License not found';
export const LICENSE_ID_MESSAGE = 'id must be a license id: lic_ followed by 22 letters, digits, - or _';

/** Minutes a generation's image URLs (for <img>) and a license download URL stay valid. */
export const IMAGE_VIEW_URL_SECONDS = 10 * 60;
export const DOWNLOAD_URL_SECONDS = 5 * 60;
/** The file name a download is saved under: it names the talent and the license. */
export const downloadFilename = (talentId: string, licenseId: string) => `humanly-${talentId}-${licenseId}.png`;

/** Whether a prompt falls within a talent's excluded industries: normalised word lists (decision 039). */
export { excludedIndustryOf } from './industries';

/**
 * The workflow's timing (docs/generation.md): how long it waits for the completed webhook
 * before polling (POLL_INTERVAL_MS apart, at most POLL_MAX_ATTEMPTS times), and the deadline
 * Replicate cancels a prediction at, set past the workflow's own limit so the workflow's
 * time-out (which cancels the prediction itself) normally comes first.
 */
export const WEBHOOK_WAIT_SECONDS = 90;
export const PREDICTION_DEADLINE_SECONDS = 8 * 60;
/**
 * Admission of prediction creations under Replicate's limit (docs/generation.md#admission,
 * decision 065). Replicate accepts this many creations a minute per account and answers 429
 * beyond; the stage setting `replicateCreationsPerMinute` (env `REPLICATE_CREATIONS_PER_MINUTE`)
 * sets the rate generation and training are admitted at.
 */
export const DEFAULT_REPLICATE_CREATIONS_PER_MINUTE = 600;
/** A start waits in the admission queue at most this long; then it fails with code `busy` and its credits are returned. */
export const ADMISSION_MAX_WAIT_SECONDS = 10 * 60;
/** How often a waiting start looks whether it was admitted; each look also serves the queue (so it drains with no new starts). */
export const ADMISSION_POLL_SECONDS = 2;
/** The failure of a start that waited ADMISSION_MAX_WAIT_SECONDS without being admitted. */
export const ADMISSION_TIMED_OUT_MESSAGE =
  'Image generation is very busy: this generation waited 10 minutes in the queue without starting. Nothing was generated and your credits were returned; please try again in a few minutes.';
/** The create page's line while a start waits for admission (`queue.position`, 1 = next). */
export const queuedMessage = (position: number) => `Queued, position ${position}: image generation is busy, yours starts in turn.`;

/** A failure of ours (not the model's, not the client's): the credits are returned. */
export const GENERATION_ERROR_MESSAGE = 'Something went wrong on our side while generating. Your credits were returned.';
/** The prediction was canceled before it finished (its deadline passed, or it was canceled at Replicate). */
export const GENERATION_CANCELED_MESSAGE = 'The image model stopped before finishing these images. Your credits were returned.';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/**
 * The license id our namespace's `LicenseId` holds in an XMP packet (element or attribute form):
 * what the license check page and the reports wing read from a file.
 */
export function licenseIdInXmp(xmp: string): string | undefined {
  const ns = escapeRegExp(XMP_NAMESPACE);
  const prefixes = [...xmp.matchAll(new RegExp(`xmlns:([A-Za-z_][\\w.-]*)\\s*=\\s*["']${ns}["']`, 'g'))].map((m) => m[1]);
  for (const prefix of new Set(prefixes)) {
    const p = escapeRegExp(prefix);
    const forms = [
      new RegExp(`<${p}:LicenseId(?:\\s[^>]*)?>\\s*([^<\\s]+)\\s*</${p}:LicenseId>`),
      new RegExp(`\\s${p}:LicenseId\\s*=\\s*["']([^"']+)["']`),
    ];
    for (const form of forms) {
      const value = form.exec(xmp)?.[1];
      if (value && LICENSE_ID_PATTERN.test(value)) return value;
    }
  }
  return undefined;
}
