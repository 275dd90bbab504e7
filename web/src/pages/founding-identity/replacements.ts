// Replacing photos through the replace link (docs/identity.md): which photos to show first, the
// new files the applicant picks, their presigned uploads with progress, and what is submitted.
import type { IdentityStatus } from '../../../../events/identity';
import { MAX_APPLICATION_IMAGES, MAX_PHOTO_BYTES } from '../../../../events/founding-values';
import type { IdentityApi, UploadFile } from './api';

/** The browser sets these itself and refuses to let scripts set them. */
const FORBIDDEN_HEADERS = new Set(['content-length', 'host', 'connection']);

/** The headers a presigned PUT names, less those a browser sets itself. */
export function putHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !FORBIDDEN_HEADERS.has(name.toLowerCase())));
}

export type ApplicantPhoto = NonNullable<IdentityStatus['photoList']>[number];

/** The photos not usable first (in the order the server gave), then the usable ones. */
export function photosToShow(list: readonly ApplicantPhoto[]): ApplicantPhoto[] {
  return [...list.filter((p) => !p.usable), ...list.filter((p) => p.usable)];
}

/** What the file input accepts: the two formats a replacement may have. */
export const REPLACEMENT_ACCEPT = 'image/jpeg,image/png,.jpg,.jpeg,.png';

/** A file's upload type from its type, else its name; undefined when it is neither JPEG nor PNG. */
export function replacementType(file: { name: string; type: string }): UploadFile['contentType'] | undefined {
  const type = file.type.toLowerCase();
  if (type === 'image/jpeg' || type === 'image/jpg' || type === 'image/pjpeg') return 'image/jpeg';
  if (type === 'image/png') return 'image/png';
  if (type) return undefined;
  const ext = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase();
  return ext === 'jpg' || ext === 'jpeg' ? 'image/jpeg' : ext === 'png' ? 'image/png' : undefined;
}

/** Why a picked file is left out, or undefined when it can be uploaded. */
export function refusalOf(file: { name: string; type: string; size: number }): string | undefined {
  if (!replacementType(file)) return `${file.name} is not a JPEG or PNG photo.`;
  if (file.size < 1) return `${file.name} is empty.`;
  if (file.size > MAX_PHOTO_BYTES) return `${file.name} is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB.`;
  return undefined;
}

/** A new photo the applicant picked, with its upload's state. */
export interface NewPhoto {
  id: string;
  file: File;
  contentType: UploadFile['contentType'];
  /** Bytes sent so far. */
  loaded: number;
  /** Storage key once uploaded: a retry does not send it again. */
  key?: string;
  error?: string;
}

/** What the page checks before sending: a message, or undefined when the change can be sent. */
export function changeProblem({ total, remove, added }: { total: number; remove: number; added: number }): string | undefined {
  if (added === 0) return 'Add at least one new photo: the check runs again on your new photos.';
  const after = total - remove + added;
  if (after > MAX_APPLICATION_IMAGES) {
    return `An application has at most ${MAX_APPLICATION_IMAGES} photos: you would have ${after}. Remove ${after - MAX_APPLICATION_IMAGES} more, or add fewer.`;
  }
  return undefined;
}

/** Whole percent of the bytes sent; 100 only once the storage has taken every photo (each has its key). */
export function percentSent(photos: readonly Pick<NewPhoto, 'loaded' | 'file' | 'key'>[]): number {
  const total = photos.reduce((n, p) => n + p.file.size, 0);
  const loaded = photos.reduce((n, p) => n + Math.min(p.loaded, p.file.size), 0);
  const percent = total > 0 ? Math.floor((loaded / total) * 100) : 0;
  return photos.every((p) => p.key) ? percent : Math.min(99, percent);
}

/** One presigned PUT: sends `body`, reporting bytes sent; rejects with a sentence naming the reason. */
export type PutFile = (upload: { url: string; headers: Record<string, string> }, body: Blob, onProgress: (loaded: number) => void) => Promise<void>;

/** PUTs with XMLHttpRequest (fetch reports no upload progress), with the signed headers. */
const xhrPut: PutFile = (upload, body, onProgress) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', upload.url);
    for (const [name, value] of Object.entries(putHeaders(upload.headers))) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(body.size);
        resolve();
      } else reject(new Error(`the storage answered ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error('the connection failed'));
    xhr.ontimeout = () => reject(new Error('the upload timed out'));
    xhr.onabort = () => reject(new Error('the upload was cancelled'));
    xhr.send(body);
  });

/** Uploads at once, at most. */
const CONCURRENCY = 4;

/**
 * Uploads every new photo that has no key yet (presigned URLs first, then CONCURRENCY PUTs at a
 * time) and resolves with every photo's key in the photos' order. A failed PUT marks its photo
 * and, once the others have finished, rejects with a sentence; photos already sent keep their keys.
 */
export async function uploadNewPhotos({
  api,
  token,
  photos,
  onPhoto,
  put = xhrPut,
}: {
  api: IdentityApi;
  token: string;
  photos: readonly NewPhoto[];
  onPhoto: (id: string, change: Partial<NewPhoto>) => void;
  put?: PutFile;
}): Promise<string[]> {
  const keys = new Map(photos.filter((p) => p.key).map((p) => [p.id, p.key!]));
  const pending = photos.filter((p) => !p.key);
  if (pending.length > 0) {
    const { uploads } = await api.replacementUploads(token, pending.map((p) => ({ contentType: p.contentType, size: p.file.size })));
    const failed: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const i = next++;
        const photo = pending[i]!;
        const upload = uploads[i]!;
        onPhoto(photo.id, { loaded: 0, error: undefined });
        try {
          await put(upload, photo.file, (loaded) => onPhoto(photo.id, { loaded }));
          keys.set(photo.id, upload.key);
          onPhoto(photo.id, { loaded: photo.file.size, key: upload.key });
        } catch (err) {
          const reason = err instanceof Error ? err.message : String(err);
          failed.push(photo.file.name);
          onPhoto(photo.id, { loaded: 0, error: `Not sent: ${reason}.` });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
    if (failed.length > 0) {
      throw new Error(
        `${failed.length === 1 ? `${failed[0]} was` : `${failed.length} photos were`} not sent. Check your connection and press “Send my photos” again: the photos already sent are kept.`,
      );
    }
  }
  return photos.map((p) => keys.get(p.id)!);
}
