// Keys of the FoundingApplications table and the photos bucket (docs/founding-pipeline.md).
import { createHash, randomBytes } from 'node:crypto';
import { PENDING_PREFIX } from '../../events/founding-values';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `app_` + 20 random base32 characters: no personal data in ids. */
export function newApplicationId(): string {
  const bytes = randomBytes(20);
  let id = 'app_';
  for (const b of bytes) id += BASE32[b & 31];
  return id;
}

export const APPLICATION_ID_PATTERN = /^app_[a-z2-7]{20}$/;

export const foundingKeys = {
  /** An upload session's draft lives under its opaque folder (never the address). */
  issued: (folder: string, key: string) => ({ pk: `DRAFT#${folder}`, sk: `ISSUED#${key}` }),
  upload: (folder: string, key: string) => ({ pk: `DRAFT#${folder}`, sk: `UPLOAD#${key}` }),
  /** The session's owner (address hash) and its count of issued keys. */
  session: (folder: string) => ({ pk: `DRAFT#${folder}`, sk: 'SESSION' }),
  draft: (folder: string) => `DRAFT#${folder}`,
  emailLock: (email: string) => ({ pk: `EMAIL#${email}`, sk: 'APPLICATION' }),
  /** An unconfirmed submission by its fingerprint, so a repeat is answered, not stored twice. */
  submission: (fingerprint: string) => ({ pk: `SUBMISSION#${fingerprint}`, sk: 'SUBMISSION' }),
  /** A confirmation link's token, by its hash (the token itself is only in the email). */
  confirmToken: (tokenHash: string) => ({ pk: `CONFIRM#${tokenHash}`, sk: 'TOKEN' }),
  /** An applicant's identity token (confirmation page, QR code, replace link), by its hash. */
  identityToken: (tokenHash: string) => ({ pk: `IDENTITY#${tokenHash}`, sk: 'TOKEN' }),
  application: (id: string) => ({ pk: `APP#${id}`, sk: 'APPLICATION' }),
  applicationPk: (id: string) => `APP#${id}`,
  history: (id: string, at: string, n: number | string) => ({ pk: `APP#${id}`, sk: `HISTORY#${at}#${n}` }),
  sent: (id: string, kind: string) => ({ pk: `APP#${id}`, sk: `SENT#${kind}` }),
  spots: { pk: 'SPOTS', sk: 'FOUNDING' },
  /** A Stripe Identity VerificationSession we created, naming its application: a webhook finds the application only through it. */
  verificationSession: (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: 'VERIFICATION' }),
  /**
   * One item per application holding the perceptual hashes of its photos and verified selfies, in
   * one partition (`IMAGEHASHES`) so the copy check reads them all with one query (docs/identity.md).
   */
  imageHashesPk: 'IMAGEHASHES',
  imageHashes: (id: string) => ({ pk: 'IMAGEHASHES', sk: `APP#${id}` }),
  spot: (id: string) => ({ pk: `SPOT#${id}`, sk: 'SPOT' }),
  /** GSI byList */
  listPk: 'APPLICATIONS',
  listSk: (submittedAt: string, id: string) => `${submittedAt}#${id}`,
} as const;

/**
 * The opaque folder of an upload session's objects: a one-way hash of the session, so keys (which
 * reach S3 access logs) carry neither the address nor the session that signup requires.
 */
export const uploadFolderOf = (uploadSession: string) => createHash('sha256').update(`upload-folder:${uploadSession}`).digest('hex').slice(0, 32);
/** An address as the draft stores it: hashed, to compare, never to read. */
export const addressHashOf = (email: string) => createHash('sha256').update(`address:${email.trim().toLowerCase()}`).digest('hex');
/** `pending/{folder}/` — the only prefix an upload session's objects may live under. */
export const pendingPrefix = (folder: string) => `${PENDING_PREFIX}${folder}/`;
export const photoKey = (id: string, index: number) => `applications/${id}/photos/${index}.jpg`;
export const thumbnailKey = (id: string, index: number) => `applications/${id}/thumbs/${index}.jpg`;
export const applicationPrefix = (id: string) => `applications/${id}/`;
/**
 * The proof of person's objects (docs/identity.md), under the application's prefix so they are
 * deleted with its photos: the selfie, the encrypted face descriptors, replacement uploads.
 */
export const identityKeys = {
  prefix: (id: string) => `applications/${id}/identity/`,
  /** The verified selfie of a VerificationSession, as read from Stripe. */
  verifiedSelfie: (id: string, sessionId: string) => `applications/${id}/identity/selfie-${sessionId}.jpg`,
  /** The set's and the selfie's descriptors, AES-256-GCM encrypted (identity-crypto.ts). */
  descriptors: (id: string) => `applications/${id}/identity/descriptors.enc`,
  selfieDescriptor: (id: string) => `applications/${id}/identity/selfie-descriptor.enc`,
  replacement: (id: string, n: string, ext: 'jpg' | 'png') => `applications/${id}/identity/replacements/${n}.${ext}`,
  replacementPrefix: (id: string) => `applications/${id}/identity/replacements/`,
};
/** The upload folder a pending key belongs to, or undefined when the key is not a pending upload. */
export function folderOfPendingKey(key: string): string | undefined {
  const m = /^pending\/([0-9a-f]{32})\/[^/]+$/.exec(key);
  return m?.[1];
}
