import type { FaceDataStatus } from '../../../../events/identity';
import { ownApplication, type Caller, type MyFaceDataDeps } from '../../identity/own-application';
import { faceDataStatusOf } from '../../identity/status';

/** `GET /me/face-data`: whether face data consent was given, and when; withdrawn, and when. */
export async function myFaceData(deps: MyFaceDataDeps, caller: Caller, ip: string): Promise<FaceDataStatus> {
  return faceDataStatusOf(await ownApplication(deps, caller, ip));
}
