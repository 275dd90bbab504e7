type PhotoStatus = 'ready' | 'uploading' | 'uploaded' | 'failed';

/** A file the applicant picked, with its upload state. */
export interface SelectedPhoto {
  id: string;
  file: File;
  zip: boolean;
  /** Images the file holds: 1 for a photo; a zip's JPEG/PNG entries once counted (null while counting). */
  images: number | null;
  /** Object URL of a photo's thumbnail; revoked when the photo is removed or the page unmounts. */
  preview?: string;
  status: PhotoStatus;
  /** Bytes sent so far. */
  loaded: number;
  /** Storage key once uploaded: not uploaded again when the submission is retried. */
  key?: string;
  error?: string;
}

/** UPLOAD_EXTENSIONS as the file input's accept list (a literal, so the page needs no contract module). */
export const ACCEPT = '.jpg,.jpeg,.png,.zip';

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Photos plus the images inside zips (zips still being counted add nothing yet). */
export function countImages(photos: readonly SelectedPhoto[]): number {
  return photos.reduce((n, p) => n + (p.images ?? 0), 0);
}

/** Whole percent of the bytes sent, for a progress bar. */
export function percent(loaded: number, total: number): number {
  return total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0;
}
