import { CONSENT_VERSION, FACE_CONSENT_VERSION, type IdentityConsentRequest, type IdentityStatus } from '../../../../events/identity';
import { ConflictError, ValidationError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { CLOSED, openByToken, type ApplicantIdentityDeps } from '../../identity/applicant';
import { IDENTITY_MESSAGES } from '../../identity/messages';
import { NEW_IDENTITY, identityStatusOf } from '../../identity/status';
import type { StoredApplication } from '../../store';

const normalName = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
const fullNameOf = (app: StoredApplication) => [app.firstName, app.lastName].filter(Boolean).join(' ');

/**
 * `POST /founding-identity/consent`: the face data consent (given or declined) and the signed
 * consent, recorded once and never changed. With face consent the photos are checked (the
 * check-faces trigger); without it nothing is analysed and a reviewer compares them by hand.
 */
export async function giveConsent(deps: ApplicantIdentityDeps, request: IdentityConsentRequest, ip: string): Promise<IdentityStatus> {
  const app = await openByToken(deps, request.token, ip);
  if (CLOSED.has(app.status)) throw new ConflictError(IDENTITY_MESSAGES.closed);
  if (request.consentVersion !== CONSENT_VERSION) throw new ValidationError(IDENTITY_MESSAGES.oldConsent, { consentVersion: IDENTITY_MESSAGES.oldConsent });
  const fullName = fullNameOf(app);
  if (normalName(request.typedName) !== normalName(fullName)) throw new ValidationError(IDENTITY_MESSAGES.nameMismatch(fullName), { typedName: IDENTITY_MESSAGES.nameMismatch(fullName) });
  if (app.identity?.consent) throw new ConflictError(IDENTITY_MESSAGES.alreadySigned);
  const now = deps.store.now().toISOString();
  const identity = {
    ...(app.identity ?? NEW_IDENTITY),
    faceConsent: request.faceConsent ? ('given' as const) : ('declined' as const),
    state: request.faceConsent ? ('checking' as const) : ('manual' as const),
    consent: { version: CONSENT_VERSION, typedName: request.typedName.trim(), signedAt: now, faceConsent: request.faceConsent ? ('given' as const) : ('declined' as const), faceConsentVersion: FACE_CONSENT_VERSION },
  };
  if (!(await deps.store.recordConsent(app.id, identity))) throw new ConflictError(IDENTITY_MESSAGES.alreadySigned);
  await deps.store.addHistory(app.id, 'consent signed', { note: `Consent ${CONSENT_VERSION} signed; face checks ${request.faceConsent ? 'agreed' : 'declined: review by hand'}` });
  log.info('identity consent recorded', { applicationId: app.id, faceConsent: identity.faceConsent });
  // Either way the workflow goes on: the trigger checks the photos, or resumes the review by hand.
  await deps.requestCheck(app.id);
  return identityStatusOf({ ...app, identity });
}
