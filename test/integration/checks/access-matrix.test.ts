import { randomUUID } from 'node:crypto';
import { ACCESS_METADATA } from '../../../infra/lib/platform/http-api';
import { buildStatement } from '../../../functions/royalties/arithmetic';
import { statementId } from '../../../events/royalty-values';
import { resourcesOfType } from '../../../infra/local/template';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { accountStore } from '../../../functions/accounts/store';
import { generationStore } from '../../../functions/generation/store';
import { generationKeys } from '../../../functions/generation/keys';
import { messageStore } from '../../../functions/contact/store';
import { royaltyStore } from '../../../functions/royalties/store';
import { talentStore } from '../../../functions/catalog/store';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { ACCESS_CLASSES, callerName, createCallers, inParallel, randomLoopback, send, type Caller } from '../../support/callers';
import { ROUTE_EXAMPLES, type Fixtures } from '../../support/route-examples';
import { documentClient, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

// The access matrix (docs/checks.md): every route of the synthesized template, called by every
// caller, with real ids in its path and a valid body. A 2xx for a caller the route's access
// class does not allow, a 5xx for anyone, or a 401/403 for a caller it does allow, fails the
// test. Routes and their classes are read from the template, so a new route joins by itself.
jest.setTimeout(120_000);
const twin = useTwin();
const marker = fileMarker('mx');
const OTHER_STATEMENT_MONTH = '2001-01';

interface Route {
  key: string;
  method: string;
  path: string;
  access?: string;
  authorizer: boolean;
}

function templateRoutes(): Route[] {
  return resourcesOfType(twin().template, 'AWS::ApiGatewayV2::Route').map(([, r]) => {
    const key = String(r.Properties?.RouteKey);
    const [method, path] = key.split(' ');
    const access = r.Metadata?.[ACCESS_METADATA];
    return { key, method, path, access: typeof access === 'string' ? access : undefined, authorizer: r.Properties?.AuthorizationType === 'JWT' };
  });
}

/** The account id (the token's `sub`) of a caller. */
const subOf = (token: string) => String(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).sub);

/** A delivered generation of client A's and its image's license, as the workflow leaves them (owner routes name them). */
async function createGeneration(clientA: string): Promise<{ generationId: string; licenseId: string }> {
  const doc = documentClient(twin());
  const table = twin().physicalName('GenerationsTable');
  const generationId = randomUUID();
  const licenseId = `lic_${Buffer.from(generationId.replace(/-/g, ''), 'hex').toString('base64url')}`;
  const key = `generations/${clientA}/${generationId}/${licenseId}.png`;
  const at = new Date().toISOString();
  const common = { talentId: 'maya-chen', talentName: 'Maya Chen', licensee: 'Matrix Client', style: 'Portrait' as const };
  await generationStore(doc, table).create({
    ...common,
    id: generationId,
    accountId: clientA,
    clientEmail: `clienta.${marker}@people.example`,
    planId: 'free',
    prompt: `Access matrix ${marker}`,
    count: 1,
    status: 'succeeded',
    createdAt: at,
    updatedAt: at,
    creditsReserved: 1,
    creditsSpent: 1,
    executionName: generationId,
    steps: [],
    images: [{ index: 0, licenseId, key }],
  });
  await doc.send(
    new PutCommand({
      TableName: table,
      Item: { ...generationKeys.license(licenseId), ...common, id: licenseId, generationId, index: 0, key, accountId: clientA, scope: 'commercial', issuedAt: at, creditValueMicros: 0 },
    }),
  );
  return { generationId, licenseId };
}

/** Creates what the routes' path parameters name: an accepted application, a hidden talent, a message, a generation. */
async function createFixtures(acceptedEmail: string, clientA: string): Promise<Fixtures> {
  const doc = documentClient(twin());
  const now = new Date().toISOString();
  // The accepted talent's likeness (PATCH /me/likeness edits it) and their application.
  const { applicationId, talentId } = await createAcceptedTalent(twin(), {
    email: acceptedEmail,
    talentId: `matrix-${marker}`,
    firstName: 'Accepted',
    lastName: marker,
    founding: false,
    marker,
  });
  const talent = talentStore(doc, twin().physicalName('CatalogTalentTable'));
  const publicTalentId = (await talent.listPublic())[0]?.id;
  if (!publicTalentId) throw new Error('the catalog has no active talent');

  const messageId = randomUUID();
  await messageStore(doc, twin().physicalName('ContactMessagesTable')).putMessage({
    id: messageId,
    status: 'new',
    createdAt: now,
    firstName: 'Matrix',
    lastName: marker,
    email: `message.${marker}@people.example`,
    subject: 'Access matrix',
    message: 'A message the matrix reads and marks handled.',
  });
  // A client account with nobody in the pool: the console's Users routes change it freely.
  const accountId = randomUUID();
  await accountStore(doc, twin().physicalName('AccountsTable')).create({ id: accountId, email: `account.${marker}@people.example`, full_name: 'Matrix Client', role: 'client' });
  // A closed statement of a seeded talent's (written once; a later run finds it there).
  const otherStatementId = statementId(OTHER_STATEMENT_MONTH, 'maya-chen');
  await royaltyStore(doc, twin().physicalName('GenerationsTable')).putStatement({
    id: otherStatementId,
    talentId: 'maya-chen',
    talentName: 'Maya Chen',
    month: OTHER_STATEMENT_MONTH,
    closedAt: '2001-02-01T01:00:00.000Z',
    totals: buildStatement([], 0).totals,
    fromMonth: OTHER_STATEMENT_MONTH,
    audit: [],
  });
  return { applicationId, talentId, publicTalentId, messageId, accountId, otherStatementId, ...(await createGeneration(clientA)) };
}

interface Cell {
  route: Route;
  caller: Caller;
  status: number;
  problem?: string;
}

describe('access matrix', () => {
  test('no route of the template answers 2xx to a caller its access class does not allow, nor 5xx to anyone', async () => {
    const routes = templateRoutes();
    expect(routes.length).toBeGreaterThan(0);

    // Every route names a known class, consistent with its authorizer, and has the example it needs.
    const setupProblems: string[] = [];
    for (const r of routes) {
      const cls = r.access === undefined ? undefined : ACCESS_CLASSES[r.access];
      if (!cls) setupProblems.push(`${r.key}: access class ${JSON.stringify(r.access)} is not one of ${Object.keys(ACCESS_CLASSES).join(', ')}`);
      else if (cls.authorizer !== r.authorizer) setupProblems.push(`${r.key}: class ${r.access} ${cls.authorizer ? 'needs' : 'must not have'} a JWT authorizer`);
      if ((r.path.includes('{') || r.method !== 'GET') && !ROUTE_EXAMPLES[r.key]) {
        setupProblems.push(`${r.key}: no example in test/support/route-examples.ts (it has path parameters or a body)`);
      }
    }
    expect(setupProblems).toEqual([]);

    const { callers, emails } = await createCallers(twin(), marker);
    const clientA = callers.find((c) => c.person === 'clientA' && c.client === 'web')!.token!;
    const fixtures = await createFixtures(emails.acceptedTalent, subOf(clientA));

    const started = Date.now();
    const pairs = routes.flatMap((route) => callers.map((caller) => ({ route, caller })));
    const cells: Cell[] = await inParallel(pairs, 12, async ({ route, caller }) => {
      const example = ROUTE_EXAMPLES[route.key] ?? {};
      const params = example.params?.(fixtures) ?? {};
      const path = route.path.replace(/\{([^}+]+)\+?\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'unknown'));
      const query = example.query ? `?${new URLSearchParams(example.query(marker))}` : '';
      const body = example.body ? JSON.stringify(example.body(marker)) : undefined;
      const answer = await send(`${twin().urls.api}${path}${query}`, {
        method: route.method,
        headers: {
          ...(caller.token ? { authorization: `Bearer ${caller.token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...example.headers?.(marker),
        },
        body,
        from: randomLoopback(),
      });
      const allowed = ACCESS_CLASSES[route.access!].allows(caller);
      const { status } = answer;
      let problem: string | undefined;
      if (status >= 500) problem = `${status} ${answer.text.slice(0, 120)}`;
      else if (!allowed && status >= 200 && status < 300) problem = `${status} for a caller class ${route.access} does not allow`;
      else if (allowed && (status === 401 || status === 403)) problem = `${status} for a caller class ${route.access} allows`;
      return { route, caller, status, problem };
    });
    const elapsed = Date.now() - started;

    const problems = cells.filter((c) => c.problem);
    if (problems.length) {
      // The whole matrix, a `!` after each unexpected answer.
      const names = callers.map(callerName);
      const width = Math.max(...routes.map((r) => r.key.length));
      const lines = [`${''.padEnd(width)}  ${names.map((n) => n.padEnd(18)).join(' ')}`];
      for (const r of routes) {
        const row = cells.filter((c) => c.route === r).map((c) => `${c.status}${c.problem ? '!' : ''}`.padEnd(18));
        lines.push(`${r.key.padEnd(width)}  ${row.join(' ')}  (${r.access})`);
      }
      console.log(`Access matrix (${elapsed} ms):\n${lines.join('\n')}\n\n${problems.map((c) => `${c.route.key} as ${callerName(c.caller)}: ${c.problem}`).join('\n')}`);
    }
    expect(problems.map((c) => `${c.route.key} as ${callerName(c.caller)}: ${c.problem}`)).toEqual([]);
  });
});
