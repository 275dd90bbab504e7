// What the applicant reads of their proof of person (IdentityStatus, events/identity.ts).
import { MIN_APPLICATION_IMAGES } from '../../../events/founding-values';
import { CONSENT_TEXT, CONSENT_VERSION, FACE_CONSENT_TEXT, FACE_CONSENT_VERSION, type FaceDataStatus, type IdentityStatus } from '../../../events/identity';
import { SELFIE_RESULT_TEXTS, type SelfieResult } from '../../../events/identity-values';
import type { Bucket } from '../../shared/s3';
import { thumbnailKey } from '../keys';
import type { StoredApplication, StoredIdentity } from '../store';
import { setPhotosOf } from './photos';
import { verificationStatusOf } from './verification';

/** An application confirmed before proof of person existed, or before the applicant answered. */
export const NEW_IDENTITY: StoredIdentity = { state: 'awaiting-consent', faceConsent: 'pending' };

const SELFIE_WAITING_TEXT = 'Your selfie is saved: we compare it with your photos once they are checked.';

/** How long an applicant's thumbnail URLs live on the replace page. */
const THUMB_URL_SECONDS = 15 * 60;

export async function identityStatusOf(app: StoredApplication, options: { storage?: Bucket; photos?: boolean } = {}): Promise<IdentityStatus> {
  const identity = app.identity ?? NEW_IDENTITY;
  const selfieState = identity.selfie?.state ?? 'none';
  const status: IdentityStatus = {
    applicationId: app.id,
    firstName: app.firstName,
    state: identity.state,
    faceConsent: identity.faceConsent,
    consent: { version: CONSENT_VERSION, text: CONSENT_TEXT, faceVersion: FACE_CONSENT_VERSION, faceText: FACE_CONSENT_TEXT, ...(identity.consent ? { signedAt: identity.consent.signedAt } : {}) },
    ...(identity.faceConsentWithdrawnAt ? { faceConsentWithdrawnAt: identity.faceConsentWithdrawnAt } : {}),
    selfie: {
      state: selfieState,
      ...(selfieState === 'waiting-for-photos' ? { message: SELFIE_WAITING_TEXT } : selfieState !== 'none' ? { message: SELFIE_RESULT_TEXTS[selfieState as SelfieResult] } : {}),
    },
    verification: verificationStatusOf(app),
    ...(identity.summary ? { photos: { total: identity.summary.total, usable: identity.summary.usable, needed: Math.max(0, MIN_APPLICATION_IMAGES - identity.summary.usable) } } : {}),
    ...(identity.state === 'awaiting-photos' && identity.replaceBy ? { replaceBy: identity.replaceBy } : {}),
  };
  if (options.photos && options.storage && app.photoResults) {
    const storage = options.storage;
    const photos = setPhotosOf(app.photoResults).sort((a, b) => Number(a.usable !== false) - Number(b.usable !== false) || a.index! - b.index!);
    status.photoList = await Promise.all(
      photos.map(async (p) => ({
        index: p.index!,
        thumbnailUrl: await storage.getUrl(thumbnailKey(app.id, p.index!), { expiresIn: THUMB_URL_SECONDS }),
        usable: p.usable !== false,
        findings: p.findings ?? [],
      })),
    );
  }
  return status;
}

/** The face data consent as the talent portal shows it: given when, withdrawn when. */
export function faceDataStatusOf(app: StoredApplication): FaceDataStatus {
  const identity = app.identity ?? NEW_IDENTITY;
  return {
    faceConsent: identity.faceConsent,
    ...(identity.consent?.faceConsent === 'given' ? { givenAt: identity.consent.signedAt } : {}),
    ...(identity.faceConsentWithdrawnAt ? { withdrawnAt: identity.faceConsentWithdrawnAt } : {}),
  };
}
