// The talent portal's likeness calls (docs/royalties.md#likeness): the state, pause and resume,
// removal and its cancellation, and the data export. Answers are checked against the shared
// contract (events/likeness.ts), whose schemas load with the first call.
import type { LikenessStatus } from '../../../../../events/likeness';
import { apiClient, type ApiOptions } from '../../../api/client';

export interface LikenessApi {
  status(): Promise<LikenessStatus>;
  pause(): Promise<LikenessStatus>;
  resume(): Promise<LikenessStatus>;
  requestRemoval(acceptFoundingRateLoss: boolean): Promise<LikenessStatus>;
  cancelRemoval(): Promise<LikenessStatus>;
  /** Everything held about the talent, as a JSON file with the name the server gives it. */
  exportData(): Promise<{ filename: string; blob: Blob }>;
}

const schemas = () => import('../../../../../events/likeness');

export function likenessApi(options: ApiOptions & { getIdToken: () => Promise<string | undefined> }): LikenessApi {
  const api = apiClient(options);
  const status = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    api.read(method, path, () => schemas().then((s) => s.LikenessStatus), body === undefined ? {} : { body });
  return {
    status: () => status('GET', '/me/likeness'),
    pause: () => status('POST', '/me/likeness/pause'),
    resume: () => status('POST', '/me/likeness/resume'),
    requestRemoval: (acceptFoundingRateLoss) => status('POST', '/me/likeness/removal', { acceptFoundingRateLoss }),
    cancelRemoval: () => status('DELETE', '/me/likeness/removal'),
    exportData: () =>
      api.download('/me/data-export', {
        accept: 'application/json',
        filename: `humanly-data-${new Date().toISOString().slice(0, 10)}.json`,
        failed: 'Your data could not be downloaded',
      }),
  };
}
