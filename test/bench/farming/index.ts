/**
 * Royalty farming bot on the twin (decision 040). A talent scripts sign-ups on a catch-all domain
 * it reads the mail of: each account confirms its code, signs in and spends the Free plan's
 * credits on the talent's likeness, for the royalties. The bot signs up from one network, then
 * from a few, while a real person signs up on another network at the same time. The twin's
 * Cognito enforces the user pool's WAF web ACL from the template (per-IP rate rules), the API its
 * own limits, and the royalties whatever caps they carry. Printed: sign-up attempts, accounts
 * created and blocked per trick, images generated, what the talent's statement of the month
 * will pay for them (the talent's earnings, as the monthly close counts them), and the person's
 * answers.
 *
 *   npm run bench:farming                   (one network 40 sign-ups, 4 networks x 15)
 *   npm run bench:farming -- --quick        (one network: the WAF limit + 1, 2 networks x 1; CI runs it)
 *
 * Networks: the twin's Cognito and API take the caller's address from the socket, as AWS does;
 * the bot connects from loopback addresses of its own, the person from another.
 * Exits non-zero if one network got more accounts than the WAF allows or the person was refused.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { FINAL_STATUSES, MAX_IMAGES } from '../../../events/generation-values';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { seedUser } from '../../../infra/local/provision';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { inParallel, send } from '../../support/callers';
import { latestCognitoCode } from '../../support/cognito-mail';
import { eventually } from '../../support/eventually';
import { documentClient, type TestTwin } from '../../support/twin';
import { benchTwin } from '../twin';

const QUICK = process.argv.includes('--quick');
const STAMP = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const PASSWORD = 'Farm!Passw0rd-bot';
const PERSON_NETWORK = '127.88.0.1';
const PERSON = `real.person.${STAMP}@people.example`;
const TALENT_NETWORK = '127.89.0.1';
/** Accounts the bot works on at once (the twin runs each function in one worker). */
const BOT_CONCURRENCY = 3;

interface Trick {
  name: string;
  attempts: Array<{ network: string; email: string }>;
}

function tricks(codeLimit: number): Trick[] {
  const email = (trick: string, i: number) => `farm.${trick}.${i}.${STAMP}@catchall.example`;
  const oneNetwork = QUICK ? codeLimit + 1 : 40;
  const [networks, each] = QUICK ? [2, 1] : [4, 15];
  return [
    { name: 'one network', attempts: Array.from({ length: oneNetwork }, (_, i) => ({ network: '127.77.1.1', email: email('one', i) })) },
    {
      name: `${networks} networks`,
      attempts: Array.from({ length: networks * each }, (_, i) => ({ network: `127.77.2.${(i % networks) + 1}`, email: email('few', i) })),
    },
  ];
}

const cognitoFrom = (twin: TestTwin, network: string) =>
  new CognitoIdentityProviderClient({
    endpoint: twin.urls.cognito,
    region: TWIN_REGION,
    credentials: { ...TWIN_CREDENTIALS },
    requestHandler: { httpAgent: new http.Agent({ localAddress: network }) },
  });

/** The limit of a rule of the user pool's web ACL, as the template sets it. */
function wafLimit(twin: TestTwin, ruleName: string): number {
  const association = Object.values(twin.template.Resources).find((r) => r.Type === 'AWS::WAFv2::WebACLAssociation');
  if (!association) throw new Error('the template has no web ACL on the user pool');
  const acl = twin.template.Resources[association.Properties!.WebACLArn['Fn::GetAtt'][0]];
  return acl.Properties!.Rules.find((r: { Name: string }) => r.Name === ruleName).Statement.RateBasedStatement.Limit;
}

async function api(twin: TestTwin, network: string, token: string | undefined, method: string, path: string, body?: unknown) {
  const answer = await send(`${twin.urls.api}${path}`, {
    method,
    from: network,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller reads the fields it needs
  return { status: answer.status, json: answer.json as any };
}

const signUp = (cognito: CognitoIdentityProviderClient, twin: TestTwin, email: string, name: string) =>
  cognito.send(
    new SignUpCommand({
      ClientId: twin.clientIds.web,
      Username: email,
      Password: PASSWORD,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'name', Value: name },
        { Name: 'custom:role', Value: 'client' },
      ],
    }),
  );

/** Confirms with the mailed code and signs in: the id token. */
async function confirmAndSignIn(cognito: CognitoIdentityProviderClient, twin: TestTwin, email: string): Promise<string> {
  const code = await latestCognitoCode(twin, email, { timeoutMs: 60_000 });
  await cognito.send(new ConfirmSignUpCommand({ ClientId: twin.clientIds.web, Username: email, ConfirmationCode: code }));
  const out = await cognito.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin.clientIds.web, AuthParameters: { USERNAME: email, PASSWORD } }));
  return out.AuthenticationResult!.IdToken!;
}

/** Spends every credit of the account on the talent, a generation at a time: the images delivered. */
async function spendCredits(twin: TestTwin, network: string, token: string, talentId: string, tag: string): Promise<number> {
  let images = 0;
  for (let round = 0; ; round++) {
    const me = await api(twin, network, token, 'GET', '/me');
    const balance: number = me.json?.credits?.balance ?? 0;
    if (balance <= 0) return images;
    const started = await api(twin, network, token, 'POST', '/generations', {
      talentId,
      prompt: `farm ${tag} ${round}: a portrait in a sunny street`,
      style: 'Portrait',
      count: Math.min(MAX_IMAGES, balance),
    });
    if (started.status !== 202) return images;
    const id: string = started.json.id;
    const done = await eventually(
      async () => {
        const g = await api(twin, network, token, 'GET', `/generations/${id}`);
        return (FINAL_STATUSES as readonly string[]).includes(g.json?.status) ? g.json : undefined;
      },
      { timeoutMs: 120_000, what: `generation ${id} to finish` },
    );
    images += (done.images ?? []).filter((i: { licenseId?: string }) => i.licenseId).length;
    if (done.status !== 'succeeded') return images;
  }
}

interface TrickResult {
  attempts: number;
  created: number;
  blocked: number;
  other: string[];
  images: number;
}

/** Sign-ups the bot has sent so far, whatever the trick. */
let botSignUps = 0;

async function runTrick(twin: TestTwin, trick: Trick, talentId: string): Promise<TrickResult> {
  const result: TrickResult = { attempts: 0, created: 0, blocked: 0, other: [], images: 0 };
  // Sign-ups first, as fast as the script goes; then each account confirms and spends.
  const accounts: Array<{ network: string; email: string }> = [];
  for (const attempt of trick.attempts) {
    result.attempts += 1;
    botSignUps += 1;
    try {
      await signUp(cognitoFrom(twin, attempt.network), twin, attempt.email, 'Farm Account');
      accounts.push(attempt);
    } catch (err) {
      if ((err as Error).name === 'ForbiddenException') result.blocked += 1;
      else result.other.push((err as Error).name);
    }
  }
  const images = await inParallel(accounts, BOT_CONCURRENCY, async ({ network, email }) => {
    const token = await confirmAndSignIn(cognitoFrom(twin, network), twin, email);
    result.created += 1;
    return spendCredits(twin, network, token, talentId, email.split('@')[0]);
  });
  result.images = images.reduce((a, b) => a + b, 0);
  return result;
}

interface PersonResult {
  steps: string[];
  ms: number;
  images: number;
}

/** A real client on another network, while the bot signs up: sign-up, code, sign-in, a first image. */
async function runPerson(twin: TestTwin, talentId: string): Promise<PersonResult> {
  await eventually(() => botSignUps > 0, { timeoutMs: 60_000, what: 'the bot signing up' });
  const started = performance.now();
  const steps: string[] = [];
  const cognito = cognitoFrom(twin, PERSON_NETWORK);
  try {
    await signUp(cognito, twin, PERSON, 'Real Person');
    steps.push('signed up');
    const token = await confirmAndSignIn(cognito, twin, PERSON);
    steps.push('confirmed and signed in');
    const ms = performance.now() - started;
    const started2 = await api(twin, PERSON_NETWORK, token, 'POST', '/generations', { talentId, prompt: 'a portrait for our spring campaign', style: 'Portrait', count: 1 });
    let images = 0;
    if (started2.status === 202) {
      const done = await eventually(
        async () => {
          const g = await api(twin, PERSON_NETWORK, token, 'GET', `/generations/${started2.json.id}`);
          return (FINAL_STATUSES as readonly string[]).includes(g.json?.status) ? g.json : undefined;
        },
        { timeoutMs: 120_000, what: "the person's generation to finish" },
      );
      images = (done.images ?? []).length;
    }
    return { steps, ms, images };
  } catch (err) {
    steps.push(`refused: ${(err as Error).name}: ${(err as Error).message}`);
    return { steps, ms: performance.now() - started, images: 0 };
  }
}

/** An accepted talent whose likeness clients can generate with, and their session. */
async function farmingTalent(twin: TestTwin): Promise<{ talentId: string; token: string }> {
  const email = `farmer.${STAMP}@people.example`;
  const talentId = `farmer-${STAMP}`;
  const { applicationId } = await createAcceptedTalent(twin, { email, talentId, firstName: 'Fay', lastName: 'Farmer', founding: false, marker: STAMP });
  await documentClient(twin).send(
    new UpdateCommand({
      TableName: twin.physicalName('CatalogTalentTable'),
      Key: { id: talentId },
      UpdateExpression: 'SET #s = :active, generation = :g, applicationId = :app',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':active': 'active', ':g': { model: 'humanly-preview/maya-chen', triggerWord: 'FARMWRD' }, ':app': applicationId },
    }),
  );
  await seedUser(twin.urls.cognito, twin.userPoolId, { email, password: PASSWORD, groups: ['talent'], attributes: { 'custom:role': 'talent' } });
  const out = await cognitoFrom(twin, TALENT_NETWORK).send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin.clientIds.web, AuthParameters: { USERNAME: email, PASSWORD } }),
  );
  return { talentId, token: out.AuthenticationResult!.IdToken! };
}

/**
 * What the talent's statement of this month will pay for the farm: `GET /me/earnings`, this
 * month so far as the monthly close builds it (its caps included). The close itself refuses a
 * month that has not ended by the clock, so the bench reads the live figures.
 */
async function earnings(twin: TestTwin, token: string): Promise<{ month: string; totals: Record<string, unknown> }> {
  const answer = await api(twin, TALENT_NETWORK, token, 'GET', '/me/earnings');
  if (answer.status !== 200) throw new Error(`GET /me/earnings answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return { month: answer.json.month, totals: answer.json.totals };
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const micros = (m: unknown) => (typeof m === 'number' ? `$${(m / 1e6).toFixed(2)}` : '-');

async function main(): Promise<void> {
  const twin = await benchTwin();
  let failed = false;
  try {
    const codeLimit = wafLimit(twin, 'cognito-codes-per-ip');
    const signInLimit = wafLimit(twin, 'cognito-sign-in-per-ip');
    const { talentId, token: talentToken } = await farmingTalent(twin);

    const personRun = runPerson(twin, talentId);
    const results = new Map<string, TrickResult>();
    for (const trick of tricks(codeLimit)) results.set(trick.name, await runTrick(twin, trick, talentId));
    const person = await personRun;
    const statement = await earnings(twin, talentToken);

    console.log(`Farming bot on the twin (user pool WAF: ${codeLimit} code-sending calls and ${signInLimit} sign-ins per IP per 5 minutes)`);
    let accounts = 0;
    let images = 0;
    for (const [name, r] of results) {
      accounts += r.created;
      images += r.images;
      const other = r.other.length ? `, other refusals: ${r.other.join(', ')}` : '';
      console.log(`${name}: ${r.attempts} sign-ups, ${r.created} accounts created, ${r.blocked} blocked by the WAF, ${r.images} images generated${other}`);
    }
    console.log(`accounts created: ${accounts}, images generated: ${images}`);
    const totals = statement.totals;
    const cents = typeof totals.royaltyCents === 'number' ? totals.royaltyCents : 0;
    const extra = Object.entries(totals)
      .filter(([k, v]) => typeof v === 'number' && !['royaltyCents', 'grossMicros', 'licenses'].includes(k))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(
      `royalties the talent earned from them: ${dollars(cents)} on ${String(totals.licenses)} licenses (${statement.month} so far, as its statement will pay them; gross ${micros(totals.grossMicros)}${images ? `, ${dollars(cents / Math.max(accounts, 1))} per account` : ''})`,
    );
    if (extra) console.log(`  statement figures: ${extra}`);
    const through = person.steps.includes('confirmed and signed in');
    console.log(
      through
        ? `Real person on another network: signed up, confirmed and signed in in ${(person.ms / 1000).toFixed(1)} s, then generated ${person.images} image(s)`
        : `Real person on another network: ${person.steps.join(', ')}`,
    );

    const oneNetwork = results.get('one network')!;
    if (oneNetwork.created > codeLimit) {
      console.error(`one network created ${oneNetwork.created} accounts, more than the WAF's ${codeLimit} in 5 minutes`);
      failed = true;
    }
    if (!through) failed = true;
  } finally {
    await twin.stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
