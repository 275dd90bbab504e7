import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, SEED_METADATA } from '../lib/platform/template-names';
import { startCognito } from './emulators/cognito';
import { startDynamo } from './emulators/dynamodb';
import { startMeterProxy } from './emulators/meter-proxy';
import { resolvePort, TWIN_CREDENTIALS, TWIN_REGION, withFreshPortOnClash } from './emulators/ports';
import { startReplicate, type ReplicateControl, type ReplicateLatency } from './emulators/replicate';
import { LocalKeys } from './emulators/kms';
import { LocalSecrets } from './emulators/secrets';
import { testCertificateChain } from './test-certificate';
import { startS3 } from './emulators/s3';
import { planCatalog, startStripe, type StripeControl } from './emulators/stripe';
import { startSes } from './emulators/ses';
import { ControlPlane } from './control-plane';
import { EventRouter, type BusEvent } from './eventbridge';
import { bundlePaths } from './bundle-cache';
import { cacheOff } from './synth-cache';
import { FunctionRuntime, templateFunctions } from './functions';
import { HttpApiGateway } from './gateway';
import { Instruments, type Fault, type FaultKind, type Meters } from './instruments';
import type { Inventory } from './parity';
import { createBuckets, createTables, createUserPool, enrolTotp, seedTables, seedUser } from './provision';
import { securityHeadersOf, StaticSite } from './static-sites';
import { StateMachineRunner } from './stepfunctions';
import { LOCAL_ACCOUNT, LOCAL_REGION, Resolver, resourcesOfType, stateMachineDefinition, synthTemplate, type CfnTemplate } from './template';
import { encodeS3EventKey } from './s3-event-key';
import { associatedWebAcl } from './waf';

export const DEFAULT_PORTS = { web: 4000, admin: 4001, api: 4010, control: 4011, dynamodb: 4020, s3: 4021, ses: 4022, cognito: 4023, replicate: 4024, stripe: 4025 };
type PortName = keyof typeof DEFAULT_PORTS;

export interface TwinOptions {
  /** Ports to use; 0 or absent picks a free one (tests), `DEFAULT_PORTS` for `npm start`. */
  ports?: Partial<Record<PortName, number>>;
  /** Extra CDK context, e.g. `{ waitlistCapacity: 5 }`. */
  context?: Record<string, unknown>;
  /** Shorten waits and retry pauses (tests). */
  fast?: boolean;
  /**
   * The factor of the state machines' waits, task time-outs and retry pauses (default 0.001 when
   * `fast`, else 1). A bench sets it to keep the waits' proportions at a scale it can afford.
   */
  waitScale?: number;
  admin?: { email: string; password: string };
  /** Where function logs and emulator notes go; silent when absent. */
  log?: (line: string) => void;
  verbose?: boolean;
  /**
   * Put the instruments (meters and faults, decision 018) between the functions and the
   * emulators. Off by default: an uninstrumented twin has no proxy on its paths.
   */
  instrument?: boolean;
  /**
   * Lifetime of the site's (web client's) access and id tokens, in seconds (default: the
   * template's). Tests set a short one to see a session outlive its tokens through refresh;
   * Cognito's own minimum is 5 minutes.
   */
  tokenLifetimeSeconds?: number;
  /**
   * How long the Replicate emulator's predictions take (default: starting 200 ms, processing
   * 1 s; `npm start` uses a few seconds so the create page's progress shows). A `fast` twin
   * scales the workflow's waits by 1/1000 (the 90 s webhook wait and 60 polls 5 s apart take
   * about a second), so its predictions default to 20 ms and 100 ms, well inside that window.
   */
  replicateLatency?: Partial<ReplicateLatency>;
}

/** Meters and faults of an instrumented twin (`startTwin({ instrument: true })`). */
interface TwinInstruments {
  /** What was used since the start or the last reset. */
  meters(): Meters;
  reset(): void;
  inject(fault: Fault): Promise<void>;
  /** Clears one fault (by kind, and function name), or all of them. */
  clear(kind?: FaultKind, name?: string): Promise<void>;
  active(): Fault[];
  /**
   * Delivers again the routed events that match (same ids, as EventBridge's at-least-once
   * delivery and S3's repeated notifications do); returns how many.
   */
  replay(filter: { source?: string; detailType?: string; detailIncludes?: string }): number;
}

/** Predictions on a `fast` twin: quick next to its scaled waits (see `replicateLatency`). */
const FAST_REPLICATE_LATENCY: Partial<ReplicateLatency> = { startingMs: 20, processingMs: 100 };

const DEFAULT_ADMIN = { email: 'admin@humanly.local', password: 'Review-Console-2026!' };

export interface Twin {
  urls: {
    web: string;
    admin: string;
    api: string;
    control: string;
    dynamodb: string;
    s3: string;
    ses: string;
    mail: string;
    cognito: string;
    /** The Replicate emulator (its API is under `/v1`). */
    replicate: string;
    /** The Stripe emulator (its API under `/v1`, its hosted pages beside it; decision 042). */
    stripe: string;
  };
  /** The seeded admin; `totpSecret` computes the two-factor codes the console asks for (`totpCode`). */
  admin: { email: string; password: string; totpSecret: string };
  userPoolId: string;
  clientIds: { web: string; admin: string };
  template: CfnTemplate;
  /** Environment for SDK clients in tests and scripts: credentials, region and endpoints. */
  sdkEnv: Record<string, string>;
  /** Physical name of a resource, by the start of its logical id (e.g. 'WaitlistTable'). */
  physicalName(logicalIdPrefix: string): string;
  inventory(): Inventory;
  unsupported(): string[];
  events: EventRouter;
  functions: FunctionRuntime;
  /** Present when the twin was started with `instrument: true`. */
  instruments?: TwinInstruments;
  /** The Replicate emulator's faults, latency, predictions and outputs (decision 028). */
  replicate: ReplicateControl;
  /** The Stripe emulator's keys, faults, deliveries and clock (decision 042). */
  stripe: StripeControl;
  /**
   * The signing secrets (`whsec_...`) the Stripe emulator signs the twin's own endpoints with:
   * the payments wing's (`platform`), the payouts wing's Connect one (`connect`) and the founding
   * wing's Identity one (`identity`), when the template has them.
   */
  stripeWebhookSecrets: { platform?: string; connect?: string; identity?: string };
  emails(): Promise<Array<{ from: string; to: string[]; replyTo?: string[]; subject: string; text?: string; html?: string; at: string }>>;
  /** Resolves when no event delivery is under way. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** The CDK context of a twin's app: its sites' URLs, and the options' own context over them. */
function appContext(options: TwinOptions, webUrl: string, adminUrl: string): Record<string, unknown> {
  // A removal's 30-day notice is minutes on the twin (seconds on a fast one), so it can be seen through.
  return { stage: 'local', siteUrl: webUrl, siteOrigins: [webUrl, adminUrl], removalNoticeSeconds: options.fast ? 5 : 300, ...options.context };
}

/**
 * Fills the caches (decision 034) with what `startTwin(options)` synthesizes and bundles, and
 * starts nothing: a test run does it once before its twins start side by side, so they do not
 * each build the same things at the same time. Any ports do (the cache stands in for them).
 */
export async function warmTwinCaches(options: TwinOptions = {}): Promise<void> {
  if (cacheOff()) return;
  const template = synthTemplate(appContext(options, 'http://127.0.0.1:1', 'http://127.0.0.1:2'));
  await bundlePaths(templateFunctions(template), path.join(REPO_ROOT, `.twin-build-${randomUUID()}`));
}

/**
 * Starts the twin. Ports it picked itself are free when picked but bound later; if another process
 * (a twin starting beside it) takes one meanwhile, the whole start is tried again on fresh ports.
 */
export function startTwin(options: TwinOptions = {}): Promise<Twin> {
  const chosen = Object.values(options.ports ?? {}).find((p) => Boolean(p));
  return withFreshPortOnClash(chosen, () => startTwinOnce(options));
}

async function startTwinOnce(options: TwinOptions): Promise<Twin> {
  const lifetime = options.tokenLifetimeSeconds;
  if (lifetime !== undefined && (!Number.isInteger(lifetime) || lifetime < 1)) {
    throw new Error(`tokenLifetimeSeconds must be a whole number of seconds of at least 1, got ${lifetime}`);
  }
  const log = options.log ?? (() => undefined);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((e) => log(`stop: ${(e as Error).message}`));
  };
  try {
    const port = async (name: PortName) => resolvePort(options.ports?.[name]);
    const [webPort, adminPort, apiPort, controlPort] = await Promise.all([port('web'), port('admin'), port('api'), port('control')]);
    const url = (p: number) => `http://127.0.0.1:${p}`;
    const [webUrl, adminUrl, apiUrl, controlUrl] = [webPort, adminPort, apiPort, controlPort].map(url);

    // The emulators that need nothing from the template start while the app synthesizes.
    const dynamoP = startDynamo({ port: options.ports?.dynamodb, verbose: options.verbose });
    const s3P = startS3({ port: options.ports?.s3, verbose: options.verbose });
    const sesP = startSes({ port: options.ports?.ses, verbose: options.verbose });
    const settled = Promise.allSettled([dynamoP, s3P, sesP]);
    let template: CfnTemplate;
    try {
      template = synthTemplate(appContext(options, webUrl, adminUrl));
    } finally {
      for (const r of await settled) if (r.status === 'fulfilled') stops.push(() => r.value.stop());
    }
    const [dynamo, s3, ses] = await Promise.all([dynamoP, s3P, sesP]);

    const resolver = new Resolver(template);
    const names = assignPhysicalNames(template, resolver, { webUrl, adminUrl, apiUrl });
    const secrets = new LocalSecrets(template, resolver);
    for (const id of secrets.ids()) names.set(id, secrets.arnOf(id)!);
    // The signing keys, and the Content Credentials key's chain from a test CA made now (decision 062).
    const keys = new LocalKeys(template, resolver);
    for (const id of keys.ids()) names.set(id, keys.arnOf(id)!);
    const credentialsKey = keys.publicKeyOf('ContentCredentialsKey');
    if (credentialsKey) secrets.setValue('ContentCredentialsChain', await testCertificateChain(credentialsKey));

    // Replicate accepts the token the template's secret holds, as the real one accepts ours.
    const replicate = await startReplicate({
      port: options.ports?.replicate,
      verbose: options.verbose,
      token: secrets.valueOf('ReplicateToken'),
      latency: { ...(options.fast ? FAST_REPLICATE_LATENCY : {}), ...options.replicateLatency },
      // Replicate retries the completed webhook for about a minute; a test's twin, for a second.
      webhookRetryDelaysMs: options.fast ? [50, 100, 200, 400, 800] : undefined,
      log: (line) => log(`[replicate] ${line}`),
    });
    stops.push(() => replicate.stop());

    // Stripe, with the plans' products and prices (decision 042); it accepts the template's
    // Stripe secret key when there is one, as Stripe accepts ours.
    const stripe = await startStripe({
      port: options.ports?.stripe,
      verbose: options.verbose,
      secretKey: secrets.valueOf('StripeSecretKey'),
      catalog: planCatalog(),
      // Stripe retries a webhook for three days; a test's twin, for a few seconds.
      webhookRetryDelaysMs: options.fast ? [50, 100, 200, 400, 800, 1600] : undefined,
      log: (line) => log(`[stripe] ${line}`),
    });
    stops.push(() => stripe.stop());
    // Our webhook route, signed with the template's webhook secret as Stripe signs with the
    // endpoint's (the payments wing verifies with the same value from the local Secrets Manager).
    const stripeWebhookSecret = secrets.valueOf('StripeWebhookSecret');
    if (stripeWebhookSecret) stripe.addWebhookEndpoint({ url: `${apiUrl}/webhooks/stripe`, secret: stripeWebhookSecret });
    // The payouts wing's Connect route: the events of connected accounts (onboarding, bank
    // accounts, payouts), signed with the template's Connect webhook secret.
    const stripeConnectWebhookSecret = secrets.valueOf('StripeConnectWebhookSecret');
    if (stripeConnectWebhookSecret) stripe.addWebhookEndpoint({ url: `${apiUrl}/webhooks/stripe-connect`, secret: stripeConnectWebhookSecret, connect: true });
    // The founding wing's Identity route: every VerificationSession event (decision 056), signed
    // with the template's Identity webhook secret, when the template has one.
    const stripeIdentityWebhookSecret = secrets.valueOf('StripeIdentityWebhookSecret');
    if (stripeIdentityWebhookSecret) {
      stripe.addWebhookEndpoint({ url: `${apiUrl}/webhooks/stripe-identity`, secret: stripeIdentityWebhookSecret, enabledEvents: ['identity.verification_session.*'] });
    }

    const cognitoTriggers = Object.fromEntries(
      Object.entries(resourcesOfType(template, 'AWS::Cognito::UserPool')[0]?.[1].Properties?.LambdaConfig ?? {}).map(
        ([trigger, arn]) => [trigger, resolver.resolve(arn).split(':')[6]],
      ),
    );
    // The pool's web ACL, enforced on every request to the twin's Cognito (decision 040).
    const poolWebAcl = associatedWebAcl(template, resolver, resourcesOfType(template, 'AWS::Cognito::UserPool')[0]?.[0] ?? '');
    const cognito = await startCognito({
      webAcl: poolWebAcl && { name: poolWebAcl.webAclId, properties: poolWebAcl.properties },
      port: options.ports?.cognito,
      verbose: options.verbose,
      lambdaEndpoint: controlUrl,
      triggers: cognitoTriggers,
      // Cognito's messages (codes, invitations) go to the Sent emails page like every other mail.
      sesEndpoint: ses.endpoint,
      passwordPolicy: resourcesOfType(template, 'AWS::Cognito::UserPool')[0]?.[1].Properties?.Policies?.PasswordPolicy,
    });
    stops.push(() => cognito.stop());

    const tables = resourcesOfType(template, 'AWS::DynamoDB::Table');
    await createTables(dynamo.endpoint, tables.map(([id, r]) => ({ name: names.get(id)!, properties: resolver.resolve(r.Properties ?? {}) })));
    // Seed files named by table metadata; in AWS a custom resource puts the same items.
    await seedTables(
      dynamo.endpoint,
      tables.filter(([, r]) => r.Metadata?.[SEED_METADATA]).map(([id, r]) => ({ name: names.get(id)!, file: path.join(REPO_ROOT, r.Metadata![SEED_METADATA]) })),
    );
    await createBuckets(
      s3.endpoint,
      resourcesOfType(template, 'AWS::S3::Bucket').map(([id, r]) => ({ name: names.get(id)!, properties: resolver.resolve(r.Properties ?? {}) })),
    );

    const [poolLogicalId, pool] = resourcesOfType(template, 'AWS::Cognito::UserPool')[0];
    const { LambdaConfig: _triggers, ...poolProps } = pool.Properties ?? {};
    const clients = resourcesOfType(template, 'AWS::Cognito::UserPoolClient');
    const created = await createUserPool(cognito.endpoint, {
      poolName: poolProps.UserPoolName ?? poolLogicalId,
      properties: resolver.resolve(poolProps),
      groups: resourcesOfType(template, 'AWS::Cognito::UserPoolGroup').map(([, g]) => ({
        name: g.Properties!.GroupName,
        properties: g.Properties,
      })),
      clients: clients.map(([logicalId, c]) => {
        const { UserPoolId: _pool, ...rest } = c.Properties ?? {};
        return { logicalId, properties: logicalId.startsWith('AuthWebClient') ? withTokenLifetime(rest, options.tokenLifetimeSeconds) : rest };
      }),
    });
    resolver.set(poolLogicalId, {
      ref: created.userPoolId,
      attrs: {
        Arn: `arn:aws:cognito-idp:${LOCAL_REGION}:${LOCAL_ACCOUNT}:userpool/${created.userPoolId}`,
        ProviderName: `cognito-idp.${LOCAL_REGION}.amazonaws.com/${created.userPoolId}`,
        ProviderURL: `https://cognito-idp.${LOCAL_REGION}.amazonaws.com/${created.userPoolId}`,
      },
    });
    for (const [id] of clients) resolver.set(id, { ref: created.clientIds[id] });
    const clientIdOf = (prefix: string) => created.clientIds[clients.find(([id]) => id.startsWith(prefix))?.[0] ?? ''] ?? '';

    const admin = options.admin ?? DEFAULT_ADMIN;
    await seedUser(cognito.endpoint, created.userPoolId, { email: admin.email, password: admin.password, groups: ['admin'] });

    // The functions reach DynamoDB, S3 and SES through the instruments' proxies when asked for.
    const instruments = options.instrument ? new Instruments() : undefined;
    const proxied = async (service: 'dynamodb' | 's3' | 'ses', endpoint: string) => {
      if (!instruments) return endpoint;
      const proxy = await startMeterProxy(service, endpoint, instruments);
      stops.push(() => proxy.stop());
      return proxy.endpoint;
    };
    const fnEndpoints = {
      dynamodb: await proxied('dynamodb', dynamo.endpoint),
      s3: await proxied('s3', s3.endpoint),
      ses: await proxied('ses', ses.endpoint),
    };

    const sdkEnv: Record<string, string> = {
      AWS_REGION: TWIN_REGION,
      AWS_DEFAULT_REGION: TWIN_REGION,
      AWS_ACCESS_KEY_ID: TWIN_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: TWIN_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_SESV2: ses.endpoint,
      AWS_ENDPOINT_URL_SES: ses.endpoint,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.endpoint,
      AWS_ENDPOINT_URL_EVENTBRIDGE: controlUrl,
      AWS_ENDPOINT_URL_SFN: controlUrl,
      AWS_ENDPOINT_URL_LAMBDA: controlUrl,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: controlUrl,
      AWS_ENDPOINT_URL_KMS: controlUrl,
      AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
      AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    };

    // Bundles live inside the repo so they resolve the AWS SDK from node_modules, as on Lambda: in
    // the bundle cache (.twin/cache/bundles, decision 034), or in this directory when it is off.
    const buildDir = path.join(REPO_ROOT, `.twin-build-${randomUUID()}`);
    const functionEnv = {
      ...sdkEnv,
      AWS_ENDPOINT_URL_DYNAMODB: fnEndpoints.dynamodb,
      AWS_ENDPOINT_URL_S3: fnEndpoints.s3,
      AWS_ENDPOINT_URL_SESV2: fnEndpoints.ses,
      AWS_ENDPOINT_URL_SES: fnEndpoints.ses,
    };
    const functions = new FunctionRuntime(template, resolver, functionEnv, {
      buildDir,
      log: (fn, line) => log(`[${fn}] ${line}`),
      instruments,
      envOverrides: { REPLICATE_API_URL: `${replicate.endpoint}/v1`, STRIPE_API_URL: stripe.endpoint },
    });
    stops.push(async () => {
      await functions.stop();
      fs.rmSync(buildDir, { recursive: true, force: true });
    });
    await functions.start();

    const scale = options.waitScale ?? (options.fast ? 0.001 : 1);
    const runner = new StateMachineRunner({
      invokeLambda: (arn, payload) => functions.invoke(arn, payload),
      waitTimeScale: scale,
      retryIntervalScale: scale,
      putEvents: async (entries) => events.putEvents(entries),
      ...(instruments && { onStateEntered: (execution, state) => instruments.stateEntered(execution, state), onExecutionStarted: () => instruments.executionStarted() }),
    });
    stops.push(async () => runner.stopAll());
    const stateMachines: string[] = [];
    for (const [id, sm] of resourcesOfType(template, 'AWS::StepFunctions::StateMachine')) {
      const arn = resolver.resolve({ Ref: id });
      runner.register(resolver.resolve(sm.Properties?.StateMachineName) ?? id, arn, stateMachineDefinition(resolver, id, sm));
      stateMachines.push(id);
    }

    const events: EventRouter = new EventRouter(
      template,
      resolver,
      {
        lambda: (arn, event) => functions.invoke(arn, event),
        stateMachine: async (arn, input) => runner.startExecution(arn, input),
      },
      { retryBaseMs: options.fast ? 5 : 1000, log, ...(instruments && { onRoute: (bus: string, event: BusEvent) => instruments.eventRouted(bus, event) }) },
    );
    stops.push(async () => events.close());

    // S3 buckets with EventBridge notifications put "Object Created" on the default bus. CDK's
    // `eventBridgeEnabled` sets them through its Custom::S3BucketNotifications resource.
    const notifying = new Set([
      ...resourcesOfType(template, 'AWS::S3::Bucket')
        .filter(([, b]) => b.Properties?.NotificationConfiguration?.EventBridgeConfiguration?.EventBridgeEnabled)
        .map(([id]) => names.get(id)!),
      ...resourcesOfType(template, 'Custom::S3BucketNotifications')
        .filter(([, n]) => n.Properties?.NotificationConfiguration?.EventBridgeConfiguration)
        .map(([, n]) => String(resolver.resolve(n.Properties!.BucketName))),
    ]);
    s3.onObjectCreated((e) => {
      if (!notifying.has(e.bucket)) return;
      events.route('default', {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Object Created',
        source: 'aws.s3',
        account: LOCAL_ACCOUNT,
        time: e.eventTime,
        region: LOCAL_REGION,
        resources: [`arn:aws:s3:::${e.bucket}`],
        detail: {
          version: '0',
          bucket: { name: e.bucket },
          object: { key: encodeS3EventKey(e.key), size: e.size, etag: e.etag, sequencer: Date.now().toString(16) },
          'request-id': randomUUID(),
          requester: LOCAL_ACCOUNT,
          reason: 'PutObject',
        },
      });
    });

    const gateway = new HttpApiGateway(template, resolver, {
      invoke: (arn, event) => functions.invoke(arn, event),
      jwtIssuer: (issuer) => {
        const poolId = issuer.split('/').pop()!;
        return { issuer: cognito.issuer(poolId), jwksUri: cognito.jwksUrl(poolId) };
      },
      log,
    });
    await gateway.listen(apiPort);
    stops.push(() => gateway.close());

    const control = new ControlPlane({ events, functions, sfn: runner, secrets, keys, log });
    await control.listen(controlPort);
    stops.push(() => control.close());

    // Admin routes need two-factor sign-in: the seeded admin has TOTP turned on (this needs the
    // control plane, which runs the pre-token-generation trigger of each sign-in).
    const adminWithTotp = { ...admin, totpSecret: await enrolTotp(cognito.endpoint, clientIdOf('AuthAdminClient'), admin) };

    // Presigned URLs name the S3 endpoint the functions use.
    const connect = [apiUrl, cognito.endpoint, fnEndpoints.s3];
    const common = { apiUrl, stage: 'local', region: LOCAL_REGION, userPoolId: created.userPoolId, userPoolEndpoint: cognito.endpoint };
    const contactEmail = String(options.context?.contactEmail ?? 'hello@humanly.example');
    const web = new StaticSite(
      path.join(REPO_ROOT, 'web', 'dist'),
      () => ({ ...common, userPoolClientId: clientIdOf('AuthWebClient'), contactEmail, prelaunch: true }),
      // Generated images show on /create and in the client portal through presigned S3 URLs; a
      // license page's thumbnail comes from the API (AWS's img-src allows any https host).
      securityHeadersOf(template, resolver, 'WebSite', connect, [fnEndpoints.s3, apiUrl]),
    );
    const adminSite = new StaticSite(
      path.join(REPO_ROOT, 'admin', 'dist'),
      () => ({ ...common, userPoolClientId: clientIdOf('AuthAdminClient'), siteUrl: webUrl }),
      // The review console shows applicants' photos through presigned S3 URLs.
      securityHeadersOf(template, resolver, 'AdminSite', connect, [fnEndpoints.s3]),
    );
    await web.listen(webPort);
    stops.push(() => web.close());
    await adminSite.listen(adminPort);
    stops.push(() => adminSite.close());

    const servedBuckets = [...names.entries()].filter(([id]) => template.Resources[id]?.Type === 'AWS::S3::Bucket').map(([id]) => id);
    return {
      urls: {
        web: webUrl,
        admin: adminUrl,
        api: apiUrl,
        control: controlUrl,
        dynamodb: dynamo.endpoint,
        s3: s3.endpoint,
        ses: ses.endpoint,
        mail: ses.viewerUrl,
        cognito: cognito.endpoint,
        replicate: replicate.endpoint,
        stripe: stripe.endpoint,
      },
      admin: adminWithTotp,
      userPoolId: created.userPoolId,
      clientIds: { web: clientIdOf('AuthWebClient'), admin: clientIdOf('AuthAdminClient') },
      template,
      sdkEnv,
      physicalName: (prefix) => {
        const hit = [...names.entries()].find(([id]) => id.startsWith(prefix));
        if (!hit) throw new Error(`No resource whose logical id starts with ${prefix}`);
        return hit[1];
      },
      inventory: () => ({
        routes: gateway.routes.map((r) => r.logicalId).sort(),
        tables: resourcesOfType(template, 'AWS::DynamoDB::Table').map(([id]) => id).sort(),
        buckets: servedBuckets.sort(),
        rules: events.rules.map((r) => r.logicalId).sort(),
        stateMachines: stateMachines.sort(),
        secrets: secrets.ids().sort(),
        webAclAssociations: poolWebAcl ? [poolWebAcl.associationId] : [],
      }),
      unsupported: () => [...gateway.unsupported, ...events.unsupported],
      events,
      functions,
      replicate,
      stripe,
      stripeWebhookSecrets: { platform: stripeWebhookSecret, connect: stripeConnectWebhookSecret, identity: stripeIdentityWebhookSecret },
      instruments: instruments && {
        meters: () => instruments.snapshot(),
        reset: () => instruments.reset(),
        inject: async (fault) => {
          if (fault?.kind === 'function' && !functions.find(fault.name)) {
            throw new Error(`no function ${JSON.stringify(fault.name)} on the twin (one of: ${functions.functions().map((f) => f.name).join(', ')})`);
          }
          await instruments.inject(fault);
        },
        clear: (kind, name) => instruments.clear(kind, name),
        active: () => instruments.active(),
        replay: (filter) => {
          const matching = instruments.eventsMatching(filter);
          for (const { busName, event } of matching) events.route(busName, event);
          return matching.length;
        },
      },
      emails: () => ses.listMessages(),
      idle: () => events.idle(),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** An app client's properties with access and id tokens valid for `seconds` (unchanged without it). */
function withTokenLifetime(properties: Record<string, unknown>, seconds: number | undefined): Record<string, unknown> {
  if (seconds === undefined) return properties;
  const units = (properties.TokenValidityUnits ?? {}) as Record<string, string>;
  return {
    ...properties,
    AccessTokenValidity: seconds,
    IdTokenValidity: seconds,
    TokenValidityUnits: { ...units, AccessToken: 'seconds', IdToken: 'seconds' },
  };
}

/**
 * Gives every template resource its twin identity (name for Ref, attributes for GetAtt).
 * Cognito's ids are set later, once the emulator has created the pool.
 */
function assignPhysicalNames(
  template: CfnTemplate,
  resolver: Resolver,
  urls: { webUrl: string; adminUrl: string; apiUrl: string },
): Map<string, string> {
  const names = new Map<string, string>();
  const arn = (service: string, resource: string) => `arn:aws:${service}:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${resource}`;
  for (const [id, r] of Object.entries(template.Resources)) {
    const p = r.Properties ?? {};
    switch (r.Type) {
      case 'AWS::DynamoDB::Table': {
        const name = p.TableName ?? id;
        names.set(id, name);
        resolver.set(id, { ref: name, attrs: { Arn: arn('dynamodb', `table/${name}`), StreamArn: arn('dynamodb', `table/${name}/stream/local`) } });
        break;
      }
      case 'AWS::S3::Bucket': {
        const name = (p.BucketName ?? id).toLowerCase().slice(0, 63);
        names.set(id, name);
        resolver.set(id, {
          ref: name,
          attrs: { Arn: `arn:aws:s3:::${name}`, DomainName: `${name}.s3.amazonaws.com`, RegionalDomainName: `${name}.s3.${LOCAL_REGION}.amazonaws.com` },
        });
        break;
      }
      case 'AWS::Events::EventBus':
        names.set(id, p.Name);
        resolver.set(id, { ref: p.Name, attrs: { Name: p.Name, Arn: arn('events', `event-bus/${p.Name}`) } });
        break;
      case 'AWS::Lambda::Function':
        resolver.set(id, { ref: id, attrs: { Arn: arn('lambda', `function:${id}`) } });
        break;
      case 'AWS::StepFunctions::StateMachine': {
        const name = p.StateMachineName ?? id;
        resolver.set(id, { ref: arn('states', `stateMachine:${name}`), attrs: { Name: name, Arn: arn('states', `stateMachine:${name}`) } });
        break;
      }
      case 'AWS::SQS::Queue':
        resolver.set(id, { ref: `http://127.0.0.1/queue/${id}`, attrs: { Arn: arn('sqs', id), QueueName: id, QueueUrl: `http://127.0.0.1/queue/${id}` } });
        break;
      case 'AWS::SES::ConfigurationSet':
        resolver.set(id, { ref: p.Name ?? id });
        break;
      case 'AWS::CloudFront::Distribution': {
        const host = new URL(id.startsWith('Admin') ? urls.adminUrl : urls.webUrl).host;
        resolver.set(id, { ref: id, attrs: { DomainName: host, Id: id } });
        break;
      }
      case 'AWS::ApiGatewayV2::Api':
        resolver.set(id, { ref: id, attrs: { ApiEndpoint: urls.apiUrl, ApiId: id } });
        break;
      default:
        resolver.set(id, { ref: id, attrs: { Arn: arn(r.Type.split('::')[1].toLowerCase(), id) } });
    }
  }
  return names;
}
