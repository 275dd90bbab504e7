import type { FaceDataStatus } from '../../../../events/identity';
import { ownApplication, type Caller, type MyFaceDataDeps } from '../../identity/own-application';
import { faceDataStatusOf } from '../../identity/status';
import { withdrawFaceConsent } from '../../identity/withdraw';

/** `POST /me/face-data/withdraw`: withdraws it (idempotent; 409 when none was given). */
export async function withdrawMyFaceData(deps: MyFaceDataDeps, caller: Caller, ip: string): Promise<FaceDataStatus> {
  const app = await ownApplication(deps, caller, ip);
  return faceDataStatusOf(await withdrawFaceConsent(deps, app, 'talent portal'));
}
