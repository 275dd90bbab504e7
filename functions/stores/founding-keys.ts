// Keys of the FoundingApplications table and the photos bucket (docs/founding-pipeline.md).
import { randomBytes } from 'node:crypto';
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
  issued: (email: string, key: string) => ({ pk: `DRAFT#${email}`, sk: `ISSUED#${key}` }),
  upload: (email: string, key: string) => ({ pk: `DRAFT#${email}`, sk: `UPLOAD#${key}` }),
  draft: (email: string) => `DRAFT#${email}`,
  emailLock: (email: string) => ({ pk: `EMAIL#${email}`, sk: 'APPLICATION' }),
  application: (id: string) => ({ pk: `APP#${id}`, sk: 'APPLICATION' }),
  applicationPk: (id: string) => `APP#${id}`,
  history: (id: string, at: string, n: number | string) => ({ pk: `APP#${id}`, sk: `HISTORY#${at}#${n}` }),
  sent: (id: string, kind: string) => ({ pk: `APP#${id}`, sk: `SENT#${kind}` }),
  spots: { pk: 'SPOTS', sk: 'FOUNDING' },
  spot: (id: string) => ({ pk: `SPOT#${id}`, sk: 'SPOT' }),
  /** GSI byList */
  listPk: 'APPLICATIONS',
  listSk: (submittedAt: string, id: string) => `${submittedAt}#${id}`,
} as const;

/** `pending/{email}/` — the only prefix an applicant's uploads may live under. */
export const pendingPrefix = (email: string) => `${PENDING_PREFIX}${email}/`;
export const photoKey = (id: string, index: number) => `applications/${id}/photos/${index}.jpg`;
export const thumbnailKey = (id: string, index: number) => `applications/${id}/thumbs/${index}.jpg`;
export const applicationPrefix = (id: string) => `applications/${id}/`;
/** The email a pending key belongs to, or undefined when the key is not a pending upload. */
export function emailOfPendingKey(key: string): string | undefined {
  const m = /^pending\/([^/]+)\/[^/]+$/.exec(key);
  return m?.[1];
}
