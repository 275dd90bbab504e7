// The upload and submit machinery (docs/product.md#founding), loaded with import() when the
// applicant first picks files or submits: presigned URLs, the PUT queue, the signup call and
// the mapping of every outcome to its alert text.
import {
  BROWSER_UPLOAD_CONCURRENCY,
  FOUNDING_MESSAGES,
  MAX_APPLICATION_IMAGES,
  MAX_FILES_PER_UPLOAD_REQUEST,
  MIN_APPLICANT_AGE,
  MIN_APPLICATION_IMAGES,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_EXTENSIONS,
  type UploadExtension,
} from '../../../../events/founding-values';
import type { FoundingSignupRequest, FoundingSignupResponse, FoundingUploadResponse, PresignedUpload } from '../../../../events/founding';
import { ApiError, postJson } from '../../api/client';
import { EMAIL_PATTERN } from '../email';
import { ACCEPT, countImages, extensionOf, type SelectedPhoto } from './photos';
import type { BuildSignup, SubmitOutcome, UploadStore } from './types';

// The components that only ever show after the machinery has loaded travel with it, in one chunk.
export { FormAlert } from './FormAlert';
export { default as PhotoList } from './PhotoList';
export { default as SubmissionDialog } from './SubmissionDialog';

/** A failure whose message is the alert text to show, word for word (docs/product.md#founding-messages). */
export class SubmissionError extends Error {
  override name = 'SubmissionError';
}

/** The browser sets these itself and refuses to let scripts set them. */
const FORBIDDEN_HEADERS = new Set(['content-length', 'host', 'connection']);

export function contentTypeOf(file: File): string {
  return file.type || UPLOAD_CONTENT_TYPES[extensionOf(file.name) as UploadExtension] || 'application/octet-stream';
}

/**
 * The alert for a failed call: a second application from the address (409, 'already
 * exists', 'duplicate') gets the duplicate alert; otherwise the server's own error text when it
 * sent one; otherwise the non-2xx alert (or the default alert when there was no status at all).
 */
export function failureAlert(status: number, serverError?: string): string {
  const text = serverError?.trim() ?? '';
  if (status === 409 || /already exists|duplicate/i.test(text)) return FOUNDING_MESSAGES.duplicateAlert;
  if (text) return text;
  if (status >= 300 || status < 200) return status === 0 ? FOUNDING_MESSAGES.defaultAlert : FOUNDING_MESSAGES.non2xxAlert;
  return FOUNDING_MESSAGES.defaultAlert;
}

/** POSTs to the API; any failure becomes a SubmissionError carrying the alert to show. */
async function post<T>(apiUrl: string, path: string, body: unknown): Promise<T> {
  try {
    return await postJson<T>(apiUrl, path, body);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 0) throw new SubmissionError(FOUNDING_MESSAGES.genericAlert(err.message));
    // A 2xx answer whose body could not be read.
    if (err.status >= 200 && err.status < 300) throw new SubmissionError(FOUNDING_MESSAGES.defaultAlert);
    throw new SubmissionError(failureAlert(err.status, err.serverError));
  }
}

/** `POST /founding-uploads` for up to MAX_FILES_PER_UPLOAD_REQUEST files at a time. */
async function requestUploads(
  apiUrl: string,
  email: string,
  files: readonly File[],
  uploadSession: string | undefined,
): Promise<{ uploadSession: string; uploads: PresignedUpload[] }> {
  const uploads: PresignedUpload[] = [];
  let session = uploadSession;
  for (let i = 0; i < files.length; i += MAX_FILES_PER_UPLOAD_REQUEST) {
    const batch = files.slice(i, i + MAX_FILES_PER_UPLOAD_REQUEST);
    const answer = await post<FoundingUploadResponse>(apiUrl, '/founding-uploads', {
      email,
      files: batch.map((f) => ({ name: f.name, type: contentTypeOf(f), size: f.size })),
      ...(session ? { uploadSession: session } : {}),
    });
    if (!answer.uploadSession || answer.uploads?.length !== batch.length) throw new SubmissionError(FOUNDING_MESSAGES.defaultAlert);
    session = answer.uploadSession;
    uploads.push(...answer.uploads);
  }
  return { uploadSession: session!, uploads };
}

function s3Message(xhr: XMLHttpRequest): string {
  const message = /<Message>([^<]*)<\/Message>/.exec(xhr.responseText ?? '')?.[1];
  return message || `the server answered ${xhr.status}${xhr.statusText ? ` ${xhr.statusText}` : ''}`;
}

/** PUTs one file with XMLHttpRequest (fetch reports no upload progress), with the signed headers. */
export function putFile(upload: PresignedUpload, file: File, onProgress: (loaded: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(upload.method || 'PUT', upload.url);
    for (const [name, value] of Object.entries(upload.headers ?? {})) {
      if (!FORBIDDEN_HEADERS.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size);
        resolve();
      } else reject(new Error(s3Message(xhr)));
    };
    xhr.onerror = () => reject(new Error('the connection failed'));
    xhr.ontimeout = () => reject(new Error('the upload timed out'));
    xhr.onabort = () => reject(new Error('the upload was cancelled'));
    xhr.send(file);
  });
}

export interface UploadCallbacks {
  /** A photo's state changed (status, loaded bytes, key, error). */
  onPhoto: (id: string, patch: Partial<SelectedPhoto>) => void;
  /** The upload session the keys were issued to: kept even when an upload then fails. */
  onSession: (uploadSession: string) => void;
}

/**
 * Uploads every photo that has no key yet, BROWSER_UPLOAD_CONCURRENCY at a time. The first
 * failure stops new uploads (those under way finish and keep their keys for a retry) and is
 * thrown as 'Failed to upload {filename}: {message}'.
 */
export async function uploadPhotos(
  apiUrl: string,
  email: string,
  photos: readonly SelectedPhoto[],
  uploadSession: string | undefined,
  { onPhoto, onSession }: UploadCallbacks,
): Promise<void> {
  const pending = photos.filter((p) => !p.key);
  if (pending.length === 0) return;
  const { uploadSession: session, uploads } = await requestUploads(
    apiUrl,
    email,
    pending.map((p) => p.file),
    uploadSession,
  );
  onSession(session);
  let next = 0;
  let failure: { photo: SelectedPhoto; message: string } | undefined;
  const worker = async () => {
    while (!failure && next < pending.length) {
      const i = next++;
      const photo = pending[i];
      const upload = uploads[i];
      onPhoto(photo.id, { status: 'uploading', loaded: 0, error: undefined });
      try {
        await putFile(upload, photo.file, (loaded) => onPhoto(photo.id, { loaded }));
        onPhoto(photo.id, { status: 'uploaded', loaded: photo.file.size, key: upload.key });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        onPhoto(photo.id, { status: 'failed', loaded: 0, error: message });
        failure ??= { photo, message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BROWSER_UPLOAD_CONCURRENCY, pending.length) }, worker));
  if (failure) throw new SubmissionError(FOUNDING_MESSAGES.uploadFailed(failure.photo.file.name, failure.message));
}

/**
 * `POST /founding-talent-signup`. Resolves with the result when the application was taken;
 * throws a SubmissionError carrying the alert otherwise. A warning is only logged.
 */
export async function submitSignup(apiUrl: string, body: FoundingSignupRequest): Promise<FoundingSignupResponse> {
  // No Idempotency-Key header: the API's CORS policy does not allow it, and the server already
  // answers a repeated submission (same fingerprint) with the original answer.
  const result = await post<FoundingSignupResponse>(apiUrl, '/founding-talent-signup', body);
  if (result.warning) console.warn(`Application submitted with a warning: ${result.warning}`);
  if (result.success === false) throw new SubmissionError(failureAlert(200, result.error));
  return result;
}

/** The alert a successful submission still shows, if any (docs/product.md#founding-messages). */
export function successNotice(result: FoundingSignupResponse): string | undefined {
  if (result.emailSent === false) return FOUNDING_MESSAGES.emailNotSentAlert;
  if (result.emailSent === undefined && result.warning && /e-?mail/i.test(result.warning)) return FOUNDING_MESSAGES.emailMentionAlert;
  return undefined;
}

/** The machinery throws alert texts; anything else unexpected gets the generic alert. */
function alertOf(err: unknown): string {
  if (err instanceof SubmissionError) return err.message;
  return FOUNDING_MESSAGES.genericAlert(err instanceof Error ? err.message : undefined);
}

/** The photos to send for `email`: uploads made for another address start over (keys live under it). */
function photosFor(store: UploadStore, email: string): readonly SelectedPhoto[] {
  if (store.session.email === email) return store.photos();
  store.session.email = email;
  store.session.uploadSession = undefined;
  store.session.keys.clear();
  const reset = store.photos().map((p) => ({ ...p, key: undefined, status: 'ready' as const, loaded: 0, error: p.zip ? p.error : undefined }));
  store.setPhotos(reset);
  return reset;
}

async function upload(store: UploadStore, email: string, photos: readonly SelectedPhoto[]) {
  const onPhoto = (id: string, change: Partial<SelectedPhoto>) => {
    if (change.key) store.session.keys.set(id, change.key);
    store.patch(id, change);
  };
  // Later files and the signup must name the same session as the files already uploaded.
  const onSession = (uploadSession: string) => {
    store.session.uploadSession = uploadSession;
  };
  // One upload at a time: a submit made while a retry is still sending its file waits for it, so
  // the file is not presigned and sent a second time. A key is in the session the moment its file
  // is uploaded, the list has it only once React has rendered the change: the keys are read once
  // the earlier upload has ended, and a file it uploaded is never sent again either way.
  const run = (store.session.running ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => {
      const known = photos.map((p) => (p.key || !store.session.keys.has(p.id) ? p : { ...p, key: store.session.keys.get(p.id) }));
      return uploadPhotos(store.apiUrl, email, known, store.session.uploadSession, { onPhoto, onSession });
    });
  store.session.running = run;
  await run;
}

/**
 * Uploads every photo without a key (files uploaded by an earlier attempt are not sent again),
 * then the signup built by `build`. The stage drives the progress dialog: it stays up on success (the page moves on) and
 * closes on failure, whose outcome carries the alert.
 */
export async function submitApplication(
  store: UploadStore,
  email: string,
  build: BuildSignup,
): Promise<SubmitOutcome> {
  store.setStage('uploading');
  try {
    const photos = photosFor(store, email);
    await upload(store, email, photos);
    const imagePaths = photos.map((p) => p.key ?? store.session.keys.get(p.id)).filter((k): k is string => Boolean(k));
    const body = build(store.session.uploadSession ?? '', imagePaths);
    store.setStage('submitting');
    const result = await submitSignup(store.apiUrl, body);
    store.setStage('almostDone');
    return { ok: true, result, notice: successNotice(result) };
  } catch (err) {
    store.setStage(null);
    return { ok: false, alert: alertOf(err) };
  }
}

/** Uploads one photo that failed, on its own; resolves with the alert when it fails again. */
export async function retryPhoto(store: UploadStore, id: string, email: string): Promise<string | undefined> {
  if (!EMAIL_PATTERN.test(email)) return FOUNDING_MESSAGES.invalidEmail;
  const photo = photosFor(store, email).find((p) => p.id === id);
  if (!photo) return undefined;
  try {
    await upload(store, email, [photo]);
    return undefined;
  } catch (err) {
    return alertOf(err);
  }
}

/** The image-count alert, or null when 30-80 images are selected. */
export function photoCountAlert(photos: readonly SelectedPhoto[]): string | null {
  if (photos.some((p) => p.images === null)) return 'Please wait a moment: we are still counting the photos in your zip.';
  const n = countImages(photos);
  if (n < MIN_APPLICATION_IMAGES) return FOUNDING_MESSAGES.tooFewImages;
  if (n > MAX_APPLICATION_IMAGES) return FOUNDING_MESSAGES.tooManyImages(n);
  return null;
}

const FOUNDING_REQUIRED: Record<string, string> = {
  firstName: 'Please enter your first name.',
  lastName: 'Please enter your last name.',
  email: 'Please enter your email address.',
  age: 'Please enter your age.',
  location: 'Please enter your city and country.',
  experience: 'Please tell us about yourself.',
};

export interface FoundingCheck {
  terms: boolean;
  /** Trimmed and lowercased. */
  email: string;
  values: Record<string, string>;
  photos: readonly SelectedPhoto[];
}

/** The founding form's checks, in order (docs/product.md#founding-messages): field errors, or one alert (terms, age, image count). */
export function checkFoundingApplication(c: FoundingCheck): { fields: Record<string, string>; alert: string | null } {
  if (!c.terms) return { fields: {}, alert: FOUNDING_MESSAGES.termsRequired };
  const fields: Record<string, string> = {};
  for (const [field, message] of Object.entries(FOUNDING_REQUIRED)) if (!c.values[field]?.trim()) fields[field] = message;
  if (!fields.email && !EMAIL_PATTERN.test(c.email)) fields.email = FOUNDING_MESSAGES.invalidEmail;
  const age = Number(c.values.age);
  if (!fields.age && (!Number.isInteger(age) || age < 1 || age > 130)) fields.age = 'Please enter your age as a whole number.';
  if (Object.keys(fields).length > 0) return { fields, alert: null };
  if (age < MIN_APPLICANT_AGE) return { fields: { age: FOUNDING_MESSAGES.underAge }, alert: FOUNDING_MESSAGES.underAge };
  return { fields, alert: photoCountAlert(c.photos) };
}

/** The founding signup payload from the form's values. */
export function foundingSignup(
  v: Record<string, string>,
  excluded: { religion: boolean; politics: boolean; alcohol: boolean },
  files: number,
): BuildSignup {
  return (uploadSession, imagePaths) => ({
    firstName: v.firstName.trim(),
    lastName: v.lastName.trim(),
    email: v.email.trim().toLowerCase(),
    phone: v.phone.trim(),
    location: v.location.trim(),
    experience: v.experience.trim(),
    interests: v.motivation.trim(),
    portfolioUrl: v.portfolio.trim(),
    age: Number(v.age),
    excludeReligion: excluded.religion,
    excludePolitics: excluded.politics,
    excludeAlcohol: excluded.alcohol,
    uploadedFilesCount: files,
    imagePaths,
    terms: true,
    uploadSession,
    program: 'founding',
  });
}

let nextId = 1;

if (ACCEPT !== UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',')) console.error('The photo picker accepts other files than the upload contract');

function isAcceptedFile(file: File): boolean {
  return (UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(file.name));
}

/**
 * Adds picked or dropped files: JPEG, PNG and zip only (the names of others are reported),
 * the same file twice once. Photos get an object URL for their thumbnail; zips are counted
 * from their directory, with fflate fetched only now.
 */
export function addFiles(store: UploadStore, files: readonly File[], reportSkipped: (names: string[]) => void): void {
  const known = new Set(store.photos().map((p) => `${p.file.name}:${p.file.size}:${p.file.lastModified}`));
  const added: SelectedPhoto[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    const signature = `${file.name}:${file.size}:${file.lastModified}`;
    if (!isAcceptedFile(file)) skipped.push(file.name);
    else if (!known.has(signature)) {
      known.add(signature);
      const zip = extensionOf(file.name) === 'zip';
      added.push({ id: `photo-${nextId++}`, file, zip, images: zip ? null : 1, preview: zip ? undefined : URL.createObjectURL(file), status: 'ready', loaded: 0 });
    }
  }
  reportSkipped(skipped);
  if (added.length === 0) return;
  store.update((list) => [...list, ...added]);
  for (const p of added) {
    if (!p.zip) continue;
    import('./zipCount')
      .then((m) => m.countZipImages(p.file))
      .then((images) => store.patch(p.id, { images }))
      .catch(() => store.patch(p.id, { images: 0, error: 'This zip could not be read.' }));
  }
}

/** The standard application (/talent-application) as a signup of program 'standard'. */
export function standardSignup(
  v: { name: string; email: string; phone: string; age: string; location: string; experience: string; why: string },
  excluded: { religion: boolean; politics: boolean; alcohol: boolean },
  files: number,
): BuildSignup {
  const [firstName, ...rest] = v.name.trim().split(/\s+/);
  return (uploadSession, imagePaths) => ({
    firstName,
    lastName: rest.join(' '),
    email: v.email.trim().toLowerCase(),
    phone: v.phone.trim(),
    location: v.location.trim(),
    // 'Tell us about yourself' is optional on this page; the why-join text stands in for it.
    experience: v.experience.trim() || v.why.trim(),
    interests: v.why.trim(),
    portfolioUrl: '',
    age: Number(v.age),
    excludeReligion: excluded.religion,
    excludePolitics: excluded.politics,
    excludeAlcohol: excluded.alcohol,
    uploadedFilesCount: files,
    imagePaths,
    terms: true,
    uploadSession,
    program: 'standard',
  });
}
