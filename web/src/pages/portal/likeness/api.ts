// The talent portal's likeness calls (docs/royalties.md#likeness): the state, pause and resume,
// removal and its cancellation, and the data export. Answers are checked against the shared
// contract (events/likeness.ts), whose schemas load with the first call.
import type { LikenessStatus } from '../../../../../events/likeness';
import { ApiError } from '../../../api/http';
import { SESSION_ENDED_MESSAGE, check, jsonCaller, type CallerOptions } from '../../../api/contract-call';

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

export function likenessApi(options: CallerOptions & { getIdToken: () => Promise<string | undefined> }): LikenessApi {
  const send = jsonCaller(options);
  const status = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => {
    const [{ LikenessStatus }, answer] = await Promise.all([schemas(), send(method, path, body === undefined ? {} : { body })]);
    return check(LikenessStatus, answer.json, answer.what, answer.status);
  };
  return {
    status: () => status('GET', '/me/likeness'),
    pause: () => status('POST', '/me/likeness/pause'),
    resume: () => status('POST', '/me/likeness/resume'),
    requestRemoval: (acceptFoundingRateLoss) => status('POST', '/me/likeness/removal', { acceptFoundingRateLoss }),
    cancelRemoval: () => status('DELETE', '/me/likeness/removal'),
    async exportData() {
      const token = await options.getIdToken();
      if (!token) throw new ApiError(SESSION_ENDED_MESSAGE, 401);
      let res: Response;
      try {
        res = await fetch(`${options.apiUrl}/me/data-export`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      } catch {
        throw new ApiError('We could not reach the server. Check your connection and try again.', 0);
      }
      if (res.status === 401) throw new ApiError(SESSION_ENDED_MESSAGE, 401);
      if (!res.ok) {
        const body = (await res.json().catch(() => undefined)) as { error?: unknown } | undefined;
        throw new ApiError(typeof body?.error === 'string' ? body.error : `Your data could not be downloaded (HTTP ${res.status}). Try again.`, res.status);
      }
      // The name the API gives (CORS exposes Content-Disposition); today's date if a proxy dropped it.
      const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `humanly-data-${new Date().toISOString().slice(0, 10)}.json`;
      return { filename, blob: await res.blob() };
    },
  };
}
