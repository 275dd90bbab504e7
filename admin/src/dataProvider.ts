import { fetchUtils, HttpError, type DataProvider } from 'react-admin';
import { WaitlistStats } from '../../events/waitlist';
import { getIdToken } from './authProvider';

/** GET /admin/stats. */
export type AdminStats = WaitlistStats;

/** The standard react-admin methods plus the console's custom ones. */
export interface ConsoleDataProvider extends DataProvider {
  getStats(): Promise<AdminStats>;
}

export type HttpClient = (path: string, options?: fetchUtils.Options) => ReturnType<typeof fetchUtils.fetchJson>;

/**
 * Calls `${apiUrl}/admin${path}` with the signed-in user's Cognito id token, which the
 * API's JWT authorizer checks (including the admin group). Errors are react-admin
 * HttpErrors carrying the status, so authProvider.checkError can react to 401 and 403.
 */
export function createHttpClient(apiUrl: string): HttpClient {
  const base = `${apiUrl.replace(/\/+$/, '')}/admin`;
  return async (path, options = {}) => {
    let token: string | undefined;
    try {
      token = (await getIdToken())?.toString();
    } catch {
      token = undefined;
    }
    if (!token) throw new HttpError('Not signed in', 401);
    const headers = new Headers(options.headers ?? { Accept: 'application/json' });
    headers.set('Authorization', `Bearer ${token}`);
    return fetchUtils.fetchJson(`${base}${path}`, { ...options, headers });
  };
}

/** Checks the shape of GET /admin/stats against the API's own schema. */
export function parseAdminStats(raw: unknown): AdminStats {
  const parsed = WaitlistStats.safeParse(raw);
  if (!parsed.success) throw new Error('Unexpected response from /admin/stats');
  return parsed.data;
}

const notImplemented = (method: string) => () =>
  Promise.reject(new Error(`dataProvider.${method} is not implemented yet`));

export function createDataProvider(apiUrl: string, httpClient: HttpClient = createHttpClient(apiUrl)): ConsoleDataProvider {
  return {
    getList: notImplemented('getList'),
    getOne: notImplemented('getOne'),
    getMany: notImplemented('getMany'),
    getManyReference: notImplemented('getManyReference'),
    create: notImplemented('create'),
    update: notImplemented('update'),
    updateMany: notImplemented('updateMany'),
    delete: notImplemented('delete'),
    deleteMany: notImplemented('deleteMany'),

    async getStats() {
      const { json } = await httpClient('/stats');
      return parseAdminStats(json);
    },
  };
}
