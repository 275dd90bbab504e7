import type { IdentityStatus } from '../../../../events/identity';
import { openByToken, type ApplicantIdentityDeps } from '../../identity/applicant';
import { identityStatusOf } from '../../identity/status';
import { withdrawFaceConsent } from '../../identity/withdraw';

/**
 * `POST /founding-identity/withdraw-consent`: takes back the face data consent (docs/identity.md,
 * "Withdrawal"). Whatever the application's status: a decided application's face data goes too.
 */
export async function withdrawConsent(deps: ApplicantIdentityDeps, token: string, ip: string): Promise<IdentityStatus> {
  const app = await openByToken(deps, token, ip);
  return identityStatusOf(await withdrawFaceConsent(deps, app, 'identity page'));
}
