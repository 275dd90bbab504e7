import type { IdentityStatus } from '../../../../events/identity';
import { openByToken, type ApplicantIdentityDeps } from '../../identity/applicant';
import { identityStatusOf } from '../../identity/status';

/** `POST /founding-identity`: where the applicant stands (with their photos on the replace page). */
export async function identityStatus(deps: ApplicantIdentityDeps, token: string, ip: string): Promise<IdentityStatus> {
  const app = await openByToken(deps, token, ip);
  return identityStatusOf(app, { storage: deps.storage, photos: app.identity?.state === 'awaiting-photos' || (app.identity?.summary?.usable ?? Infinity) < (app.identity?.summary?.total ?? 0) });
}
