// The talent portal's face data calls (docs/identity.md, "Withdrawal"): the face data consent of
// the application the account came from, and its withdrawal. Answers are checked against the
// shared contract (events/identity.ts), whose schemas load with the first call.
import type { FaceDataStatus } from '../../../../../events/identity';
import { apiClient, type ApiOptions } from '../../../api/client';

export interface FaceDataApi {
  status(): Promise<FaceDataStatus>;
  withdraw(): Promise<FaceDataStatus>;
}

const schemas = () => import('../../../../../events/identity');

export function faceDataApi(options: ApiOptions & { getIdToken: () => Promise<string | undefined> }): FaceDataApi {
  const api = apiClient(options);
  const read = (method: 'GET' | 'POST', path: string) => api.read(method, path, () => schemas().then((s) => s.FaceDataStatus));
  return {
    status: () => read('GET', '/me/face-data'),
    withdraw: () => read('POST', '/me/face-data/withdraw'),
  };
}
