// What the generation routes answer (events/generations.ts), built from the stored records, and
// the short-lived URLs of delivered images. The API's routes share these; nothing here writes.
import {
  DEFAULT_STYLE,
  DOWNLOAD_URL_SECONDS,
  downloadFilename,
  GENERATION_ID_PATTERN,
  GENERATION_NOT_FOUND_MESSAGE,
  IMAGE_VIEW_URL_SECONDS,
  LICENSE_SCOPE,
  STYLES,
  type Style,
} from '../../events/generation-values';
import type { AdminGeneration, Generation, LegacyPoll, LicenseDownload, PublicLicense } from '../../events/generations';
import type { GenerationRecord, GenerationStore, LicenseRecord } from './store';
import { NotFoundError } from '../shared/errors';
import type { Bucket } from '../shared/s3';

/** Makes a short-lived GET URL of one object of the images bucket. */
export interface ImageSigner {
  /** For an <img>: IMAGE_VIEW_URL_SECONDS. */
  view(key: string): Promise<string>;
  /** For a download: DOWNLOAD_URL_SECONDS, saved as `filename`. */
  download(key: string, filename: string): Promise<{ url: string; expiresAt: string }>;
}

/** The signer over the images bucket. */
export function imageSigner(images: Pick<Bucket, 'getUrl'>, now: () => Date = () => new Date()): ImageSigner {
  return {
    view: (key) => images.getUrl(key, { expiresIn: IMAGE_VIEW_URL_SECONDS }),
    async download(key, filename) {
      const expiresAt = new Date(now().getTime() + DOWNLOAD_URL_SECONDS * 1000).toISOString();
      const url = await images.getUrl(key, { expiresIn: DOWNLOAD_URL_SECONDS, filename, contentType: 'image/png' });
      return { url, expiresAt };
    },
  };
}

/** What every view of a generation shows, with the images the caller gives. */
function ownerFields(record: GenerationRecord, images: Generation['images']): Generation {
  return {
    id: record.id,
    talentId: record.talentId,
    talentName: record.talentName,
    prompt: record.prompt,
    style: record.style,
    count: record.count,
    status: record.status,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    creditsSpent: record.creditsSpent,
    images,
    ...(record.failure ? { failure: { code: record.failure.code, message: record.failure.message } } : {}),
  };
}

/** What the console adds: who started it and what the workflow did (`steps` only on the detail). */
function consoleFields(record: GenerationRecord, steps: AdminGeneration['steps']) {
  return {
    accountId: record.accountId,
    clientEmail: record.clientEmail,
    ...(record.predictionId ? { predictionId: record.predictionId } : {}),
    executionName: record.executionName,
    steps,
    creditsReserved: record.creditsReserved,
    ...(record.erasedAt ? { erasedAt: record.erasedAt } : {}),
  };
}

/** A generation as its owner sees it: image URLs signed for viewing, none of the workflow's internals. */
export async function generationView(record: GenerationRecord, signer: Pick<ImageSigner, 'view'>): Promise<Generation> {
  // An erased client's files are gone (decision 035): no URL leads to them.
  const images = await Promise.all(
    (record.erasedAt ? [] : record.images.filter((i) => !record.withheldLicenses?.includes(i.licenseId))).sort((a, b) => a.index - b.index).map(async (i) => ({ index: i.index, licenseId: i.licenseId, url: await signer.view(i.key) })),
  );
  return ownerFields(record, images);
}

/** The console's view: the owner's plus who started it and what the workflow did. */
export async function adminGenerationView(record: GenerationRecord, signer: Pick<ImageSigner, 'view'>): Promise<AdminGeneration> {
  const steps = record.steps.map((s) => ({ step: s.step, at: s.at, ...(s.detail ? { detail: s.detail } : {}) }));
  return { ...(await generationView(record, signer)), ...consoleFields(record, steps) };
}

/** The console's list row: the same fields without signing every image of every row. */
export function adminGenerationRow(record: GenerationRecord): AdminGeneration {
  return { ...ownerFields(record, []), ...consoleFields(record, []) };
}

/**
 * The spec's poll answer: `succeeded` with the image URLs, `failed` with the message, or the
 * running status. A canceled generation reads as failed: the original client knows only
 * succeeded and failed as final, and would otherwise poll until its limit.
 */
export async function legacyPollView(record: GenerationRecord, signer: Pick<ImageSigner, 'view'>): Promise<LegacyPoll> {
  if (record.status === 'succeeded') {
    const view = await generationView(record, signer);
    return { status: 'succeeded', output: view.images.map((i) => i.url) };
  }
  if (record.status === 'failed' || record.status === 'canceled') {
    return { status: 'failed', output: null, error: record.failure?.message ?? 'The generation was canceled.' };
  }
  return { status: record.status, output: null };
}

/**
 * The public confirmation of a license: never the prompt, the client's email or the file (only
 * whether it is still stored: its thumbnail is a route of its own).
 */
export function publicLicenseView(license: LicenseRecord): PublicLicense {
  return {
    id: license.id,
    talentId: license.talentId,
    talentName: license.talentName,
    licensee: license.licensee,
    issuedAt: license.issuedAt,
    scope: LICENSE_SCOPE,
    style: license.style,
    image: license.erasedAt ? 'erased' : 'stored',
    ...(license.revokedAt ? { revokedAt: license.revokedAt, revokedReason: license.revokedReason ?? '' } : {}),
    ...(license.withheldBy && !license.revokedAt ? { withheld: true } : {}),
  };
}

/** A license's file for its owner or an admin: a short-lived URL saved under a name that names the talent and the license. */
export async function licenseDownload(license: LicenseRecord, signer: Pick<ImageSigner, 'download'>): Promise<LicenseDownload> {
  const filename = downloadFilename(license.talentId, license.id);
  const { url, expiresAt } = await signer.download(license.key, filename);
  return { url, filename, expiresAt };
}

/**
 * The caller's own generation; 404 for an id that is not a generation id, does not exist or
 * belongs to someone else (another client learns nothing about it).
 */
export async function ownGeneration(store: Pick<GenerationStore, 'get'>, accountId: string, id: string): Promise<GenerationRecord> {
  const record = GENERATION_ID_PATTERN.test(id) ? await store.get(id) : undefined;
  if (!record || record.accountId !== accountId) throw new NotFoundError(GENERATION_NOT_FOUND_MESSAGE);
  return record;
}

const STYLE_SUFFIX = new RegExp(`,\\s*(${STYLES.join('|')})\\s+style\\s*$`, 'i');

/**
 * The spec's start sends the prompt with ', {style} style' appended (docs/product.md#create). Reads the style
 * back (any case) and answers the prompt without it; without a known style suffix the whole
 * prompt is kept and the style is the default.
 */
export function parseLegacyPrompt(prompt: string): { prompt: string; style: Style } {
  const match = STYLE_SUFFIX.exec(prompt);
  if (!match) return { prompt: prompt.trim(), style: DEFAULT_STYLE };
  const style = STYLES.find((s) => s.toLowerCase() === match[1].toLowerCase())!;
  const rest = prompt.slice(0, match.index).trim();
  // A prompt that is only the suffix keeps its text, so the prompt is never blank.
  return rest ? { prompt: rest, style } : { prompt: prompt.trim(), style: DEFAULT_STYLE };
}
