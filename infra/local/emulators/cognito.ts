// Cognito user pools: cognito-local, run from the twin's own entry (cognito-server.ts) in a
// working directory of its own (it keeps config and data under ./.cognito). Codes are random;
// every message Cognito would email goes to the SES emulator (decision 020).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  endpointFor,
  LOOPBACK,
  makeTempDir,
  resolvePort,
  spawnManaged,
  TWIN_CREDENTIALS,
  TWIN_REGION,
  waitUntil,
  EMULATOR_START_TIMEOUT_MS,
  type EmulatorHandle,
  type EmulatorOptions,
} from './ports';
import { startCognitoFront } from './cognito-front';
import type { TemplatePasswordPolicy } from './cognito-password-policy';
import { WebAclEvaluator } from '../waf';

/** Trigger names cognito-local supports (see its README), mapped to function names. */
type CognitoTriggers = Partial<
  Record<
    'PreSignUp' | 'PostConfirmation' | 'PostAuthentication' | 'PreTokenGeneration' | 'CustomMessage' | 'UserMigration' | 'CustomEmailSender',
    string
  >
>;

export interface CognitoOptions extends EmulatorOptions {
  /** Keep pools and users here (as `<dataDir>/.cognito`); default: a temp dir removed on stop. */
  dataDir?: string;
  /** Where cognito-local sends Lambda Invoke calls for triggers (the twin's Lambda API). */
  lambdaEndpoint?: string;
  /** Trigger name -> function name, e.g. { PreSignUp: 'fnName', PostConfirmation: 'fnName' }. */
  triggers?: CognitoTriggers;
  /** Defaults for pools created later; cognito-local's own default is { UsernameAttributes: ['email'] }. */
  userPoolDefaults?: Record<string, unknown>;
  /**
   * The SES endpoint Cognito's messages (codes, invitations) are sent to. Without it, a call
   * that sends a message fails saying so.
   */
  sesEndpoint?: string;
  /** The pool's password policy (the template's `Policies.PasswordPolicy`), enforced as Cognito does. */
  passwordPolicy?: TemplatePasswordPolicy;
  /** How long to wait for the server to answer, default `EMULATOR_START_TIMEOUT_MS`. */
  startTimeoutMs?: number;
  /**
   * The web ACL associated with the pool (the template's `AWS::WAFv2::WebACL` properties, resolved):
   * every request is judged by it before Cognito sees it, as AWS WAF does (decision 040).
   */
  webAcl?: { name: string; properties: Record<string, unknown> };
}

export interface CognitoEmulator extends EmulatorHandle {
  /** JWKS of a pool: what a JWT authorizer fetches to verify tokens. */
  jwksUrl(userPoolId: string): string;
  /** The `iss` claim of the pool's tokens: `http://127.0.0.1:PORT/<userPoolId>`. */
  issuer(userPoolId: string): string;
  /** The directory holding `.cognito/config.json` and `.cognito/db`. */
  dataDir: string;
}

export async function startCognito(opts: CognitoOptions = {}): Promise<CognitoEmulator> {
  const port = await resolvePort(opts.port);
  const endpoint = endpointFor(port);
  // cognito-local listens on a port of its own behind a front that adds the calls it lacks
  // (cognito-front.ts); clients, and the issuer of its tokens, use the front's address.
  const innerPort = await resolvePort();
  const innerEndpoint = endpointFor(innerPort);
  const tempDir = opts.dataDir ? undefined : await makeTempDir('twin-cognito-');
  const dataDir = opts.dataDir ?? tempDir!.path;
  await mkdir(join(dataDir, '.cognito'), { recursive: true });

  const config = {
    // Credentials and region matter only for signing; the twin's Lambda API accepts the twin's keys.
    LambdaClient: {
      ...(opts.lambdaEndpoint ? { endpoint: opts.lambdaEndpoint } : {}),
      credentials: { ...TWIN_CREDENTIALS },
      region: TWIN_REGION,
    },
    TriggerFunctions: opts.triggers ?? {},
    UserPoolDefaults: { UsernameAttributes: ['email'], ...opts.userPoolDefaults },
    // The issuer is derived from this; pin it to the address clients really use.
    TokenConfig: { IssuerDomain: endpoint },
    ServerConfig: { hostname: LOOPBACK, port: innerPort },
  };
  await writeFile(join(dataDir, '.cognito', 'config.json'), JSON.stringify(config, null, 2));

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(innerPort),
    HOST: LOOPBACK,
    ...(opts.sesEndpoint && { COGNITO_SES_ENDPOINT: opts.sesEndpoint }),
    // cognito-local uses aws-sdk v2, which prints a maintenance-mode notice on load.
    AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
  };
  if (!opts.verbose) delete env.DEBUG;
  delete env.COGNITO_LOCAL_DEVMODE;
  // Codes must be random: cognito-local would hand out CODE for every one of them.
  delete env.CODE;
  // Run our entry with the Node that runs us, not whatever `node` is on PATH (tsx loads TypeScript).
  const entry = join(__dirname, 'cognito-server.ts');
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const proc = spawnManaged('cognito', process.execPath, ['--import', tsx, entry], { cwd: dataDir, env, verbose: opts.verbose });
  try {
    await waitUntil(
      `cognito-local on ${innerEndpoint}`,
      async () => {
        // Bounded: if something else holds the port and never answers, keep polling until failFast/timeout.
        const res = await fetch(`${innerEndpoint}/health`, { signal: AbortSignal.timeout(1000) });
        await res.arrayBuffer();
        return res.ok;
      },
      { timeoutMs: opts.startTimeoutMs ?? EMULATOR_START_TIMEOUT_MS, intervalMs: 50, failFast: proc.exitReason },
    );
  } catch (err) {
    await proc.stop(500);
    await tempDir?.release();
    throw err;
  }
  let front;
  try {
    // Compiled before the front listens: an ACL the twin cannot enforce stops the start.
    const firewall = opts.webAcl && new WebAclEvaluator(opts.webAcl.name, opts.webAcl.properties);
    front = await startCognitoFront(port, innerEndpoint, opts.passwordPolicy, firewall);
  } catch (err) {
    await proc.stop(500);
    await tempDir?.release();
    throw err;
  }

  let stopped: Promise<void> | undefined;
  return {
    endpoint,
    port,
    dataDir,
    jwksUrl: (userPoolId) => `${endpoint}/${userPoolId}/.well-known/jwks.json`,
    issuer: (userPoolId) => `${endpoint}/${userPoolId}`,
    stop() {
      stopped ??= (async () => {
        await front.close();
        await proc.stop();
        await tempDir?.release();
      })();
      return stopped;
    },
  };
}
