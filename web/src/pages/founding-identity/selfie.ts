// The live selfie (docs/identity.md, "Selfie"): the front camera, one frame encoded as JPEG, the
// presigned upload and the match. No file picker: the selfie must be taken now, with the camera.
import type { IdentityStatus } from '../../../../events/identity';
import type { IdentityApi } from './api';

/** The selfie's longer side at most, in pixels: plenty for a face, small enough to send quickly. */
export const SELFIE_MAX_SIDE = 1280;
/** SELFIE_MAX_BYTES of events/identity.ts (a literal, so the page needs no schema module). */
export const SELFIE_MAX_BYTES = 5 * 1024 * 1024;

/** What the front camera is asked for: the person's own side, about the selfie's size. */
export const CAMERA_CONSTRAINTS: MediaStreamConstraints = {
  audio: false,
  video: { facingMode: 'user', width: { ideal: SELFIE_MAX_SIDE }, height: { ideal: 960 } },
};

/** Why the camera did not open. */
export type CameraProblem = 'refused' | 'missing' | 'busy' | 'unsupported';

/** Reads getUserMedia's refusal (a DOMException's name); anything unknown reads as a busy camera, which a retry may fix. */
export function cameraProblemOf(err: unknown): CameraProblem {
  const name = (err as { name?: string } | undefined)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'refused';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'missing';
  if (name === 'TypeError') return 'unsupported';
  return 'busy';
}

/** What to do about each problem; the page offers the phone handoff beside every one. */
export const CAMERA_PROBLEM_TEXTS: Record<CameraProblem, { title: string; text: string }> = {
  refused: {
    title: 'The camera is blocked',
    text: 'Your browser did not let this page use the camera. Allow it: click the camera icon in the address bar (on a phone: the browser’s site settings, or Settings › your browser › Camera), choose Allow, then press “Try the camera again”. Or continue on your phone.',
  },
  missing: {
    title: 'No camera found',
    text: 'This device has no camera we can use. Continue on your phone: scan the code below, or send yourself the link.',
  },
  busy: {
    title: 'The camera did not start',
    text: 'Another app or tab may be using the camera. Close it, then press “Try the camera again”. Or continue on your phone.',
  },
  unsupported: {
    title: 'This browser cannot open the camera here',
    text: 'Open this page in an up-to-date browser (Chrome, Safari, Firefox or Edge), or continue on your phone.',
  },
};

/** The camera's frame scaled to fit within `maxSide` on its longer side, never enlarged; whole pixels. */
export function fitSize(width: number, height: number, maxSide = SELFIE_MAX_SIDE): { width: number; height: number } {
  if (!(width > 0 && height > 0)) throw new Error('The camera has not sent a picture yet.');
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** JPEG qualities tried in turn until the selfie fits SELFIE_MAX_BYTES. */
const QUALITIES = [0.9, 0.8, 0.65];

/**
 * The video's current frame as a JPEG, at most SELFIE_MAX_SIDE on its longer side and
 * SELFIE_MAX_BYTES. The frame is drawn as the camera sees it (the preview is mirrored for the
 * person's comfort; the photo is not).
 */
export async function captureJpeg(video: HTMLVideoElement): Promise<Blob> {
  const { width, height } = fitSize(video.videoWidth, video.videoHeight);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot take a picture from the camera.');
  context.drawImage(video, 0, 0, width, height);
  for (const quality of QUALITIES) {
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
    if (!blob) break;
    if (blob.size <= SELFIE_MAX_BYTES) return blob;
  }
  throw new Error('The selfie could not be saved as a picture. Take it again.');
}

/** The browser sets these itself and refuses to let scripts set them. */
const FORBIDDEN_HEADERS = new Set(['content-length', 'host', 'connection']);

/** The headers a presigned PUT names, less those a browser sets itself. */
export function putHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !FORBIDDEN_HEADERS.has(name.toLowerCase())));
}

export type SelfiePhase = 'uploading' | 'checking';

/**
 * Sends a selfie: a presigned URL, the PUT of its bytes with the headers it names, then the
 * analysis and match, whose answer says where the applicant stands. A failed PUT throws an Error
 * whose message is for the applicant.
 */
export async function sendSelfie({
  api,
  token,
  selfie,
  onPhase,
  fetch: fetchImpl = (...args) => fetch(...args),
}: {
  api: IdentityApi;
  token: string;
  selfie: Blob;
  onPhase?: (phase: SelfiePhase) => void;
  fetch?: typeof fetch;
}): Promise<IdentityStatus> {
  onPhase?.('uploading');
  const upload = await api.selfieUpload(token, selfie.size);
  let res: Response;
  try {
    res = await fetchImpl(upload.url, { method: 'PUT', headers: putHeaders(upload.headers), body: selfie });
  } catch {
    throw new Error('Your selfie could not be sent: the connection failed. Check your connection and try again.');
  }
  if (!res.ok) throw new Error(`Your selfie could not be sent (the storage answered ${res.status}). Try again.`);
  onPhase?.('checking');
  return api.submitSelfie(token, upload.key);
}
