import { randomInt } from 'node:crypto';
import * as http from 'node:http';
import { seedUser } from '../../infra/local/provision';
import { idToken, type TestTwin } from './twin';

/** The people who call the API in the access matrix. */
type Person = 'anonymous' | 'clientA' | 'clientB' | 'talent' | 'acceptedTalent' | 'admin';

/**
 * One way of calling: a person, signed in on one of the pool's app clients (the site's `web` or
 * the console's `admin`), or nobody. Every signed-in person is tried with both clients: a
 * client's or a talent's console token is a real token of our pool and must open nothing.
 */
export interface Caller {
  person: Person;
  client?: 'web' | 'admin';
  token?: string;
}

export const callerName = (c: Caller) => (c.client ? `${c.person}@${c.client}` : c.person);

/**
 * Access classes, as routes record them in the template's `app:access` metadata
 * (infra/lib/platform/http-api.ts): who may get a 2xx, and whether the route must sit behind
 * a JWT authorizer. An `owner` route's example names a resource of client A's (a fixture the
 * matrix creates for it), so client B is the stranger. A route whose class is not listed here
 * fails the access matrix.
 */
export const ACCESS_CLASSES: Record<string, { authorizer: boolean; allows: (c: Caller) => boolean }> = {
  public: { authorizer: false, allows: () => true },
  // A webhook: only the signing service (none of the matrix's callers) gets a 2xx.
  signed: { authorizer: false, allows: () => false },
  admin: { authorizer: true, allows: (c) => c.person === 'admin' && c.client === 'admin' },
  account: { authorizer: true, allows: (c) => c.person !== 'anonymous' && c.person !== 'admin' && c.client === 'web' },
  client: { authorizer: true, allows: (c) => (c.person === 'clientA' || c.person === 'clientB') && c.client === 'web' },
  owner: { authorizer: true, allows: (c) => c.person === 'clientA' && c.client === 'web' },
  talent: { authorizer: true, allows: (c) => (c.person === 'talent' || c.person === 'acceptedTalent') && c.client === 'web' },
  'accepted-talent': { authorizer: true, allows: (c) => c.person === 'acceptedTalent' && c.client === 'web' },
};

const PASSWORD = 'Str0ng!Passw0rd-matrix';
const GROUPS: Partial<Record<Person, string>> = { clientA: 'client', clientB: 'client', talent: 'talent', acceptedTalent: 'talent' };

/** The matrix's people on the twin's pool (emails `{person}.{marker}@people.example`), each with both clients' tokens. */
export async function createCallers(twin: TestTwin, marker: string): Promise<{ callers: Caller[]; emails: Record<string, string> }> {
  const emails: Record<string, string> = {};
  const callers: Caller[] = [{ person: 'anonymous' }];
  await Promise.all(
    (Object.keys(GROUPS) as Person[]).map(async (person) => {
      const email = `${person.toLowerCase()}.${marker}@people.example`;
      emails[person] = email;
      const group = GROUPS[person]!;
      await seedUser(twin.urls.cognito, twin.userPoolId, { email, password: PASSWORD, groups: [group], attributes: { 'custom:role': group } });
    }),
  );
  for (const person of Object.keys(GROUPS) as Person[]) {
    for (const client of ['web', 'admin'] as const) callers.push({ person, client, token: await idToken(twin, emails[person], PASSWORD, client) });
  }
  for (const client of ['admin', 'web'] as const) {
    callers.push({ person: 'admin', client, token: await idToken(twin, twin.admin.email, twin.admin.password, client) });
  }
  return { callers, emails };
}

/** A loopback address other than 127.0.0.1, so that per-address rate limits see many callers. */
export const randomLoopback = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

export interface Answer {
  status: number;
  text: string;
  json?: { error?: unknown; fields?: unknown; message?: unknown };
}

/**
 * One request from a given source address (the twin's gateway takes the caller's address from
 * the socket, as API Gateway does): a fresh connection, the raw body as given.
 */
export function send(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string | Buffer; from?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method, headers: options.headers, localAddress: options.from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Answer['json'];
        try {
          json = JSON.parse(text) as Answer['json'];
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Runs tasks with at most `limit` under way at once. */
export async function inParallel<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]);
      }
    }),
  );
  return results;
}
