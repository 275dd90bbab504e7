// A thin HTTP front before cognito-local for the calls it lacks. Amplify 6 refreshes a session
// with GetTokensFromRefreshToken, which cognito-local does not know; Cognito answers it like
// InitiateAuth with REFRESH_TOKEN_AUTH (new id and access tokens, the same refresh token), so
// the front asks cognito-local exactly that. cognito-local also keeps no refresh token issued
// after a two-factor (SOFTWARE_TOKEN_MFA) challenge, so such a session could never refresh: once
// the code is accepted, the front swaps in a refresh token cognito-local keeps (see
// `keepRefreshToken`). Every other request passes through unchanged. Before any of it, the
// user pool's web ACL from the template (infra/local/waf.ts) judges each request by the caller's
// address, as AWS WAF does before Cognito: a blocked one gets Cognito's 403 ForbiddenException
// and never reaches cognito-local (decision 040).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { refusePolicyBreak, type TemplatePasswordPolicy } from './cognito-password-policy';
import { LOOPBACK } from './ports';
import { COGNITO_WAF_BLOCK, type WebAclEvaluator } from '../waf';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'content-encoding']);

export interface CognitoFront {
  server: Server;
  close(): Promise<void>;
}

/** Request of GetTokensFromRefreshToken -> request of InitiateAuth (REFRESH_TOKEN_AUTH). */
function refreshRequestAsInitiateAuth(body: Record<string, unknown>): Record<string, unknown> {
  const authParameters: Record<string, string> = { REFRESH_TOKEN: String(body.RefreshToken ?? '') };
  if (typeof body.ClientSecret === 'string') authParameters.SECRET_HASH = body.ClientSecret;
  if (typeof body.DeviceKey === 'string') authParameters.DEVICE_KEY = body.DeviceKey;
  return {
    AuthFlow: 'REFRESH_TOKEN_AUTH',
    ClientId: body.ClientId,
    AuthParameters: authParameters,
    ...(body.ClientMetadata ? { ClientMetadata: body.ClientMetadata } : {}),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function forwardHeaders(req: IncomingMessage, target?: string): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  if (target) headers.set('x-amz-target', `${TARGET_PREFIX}${target}`);
  return headers;
}

/** A password sign-in waiting for its two-factor code, by the challenge's session. */
interface PendingChallenge {
  clientId: string;
  username: string;
  password: string;
  until: number;
}

const PENDING_MS = 5 * 60 * 1000;

function parseJson(buffer: Buffer | string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(buffer.toString());
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * cognito-local stores the refresh token of a password sign-in but not of one completed by
 * RespondToAuthChallenge. After the two-factor code was accepted, the front signs the same
 * person in again with AdminInitiateAuth (which cognito-local stores, and which runs the
 * pre-token-generation trigger the same way) and hands out that refresh token instead. The
 * password is held in memory only between the challenge and its answer.
 */
async function keepRefreshToken(upstream: string, pending: PendingChallenge, answer: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = answer.AuthenticationResult as Record<string, unknown> | undefined;
  if (!result?.RefreshToken) return answer;
  const again = await fetch(upstream, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET_PREFIX}AdminInitiateAuth` },
    body: JSON.stringify({
      AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
      ClientId: pending.clientId,
      AuthParameters: { USERNAME: pending.username, PASSWORD: pending.password },
    }),
  });
  const kept = parseJson(Buffer.from(await again.arrayBuffer()))?.AuthenticationResult as Record<string, unknown> | undefined;
  if (!again.ok || !kept?.RefreshToken) throw new Error('could not keep the refresh token of a two-factor sign-in');
  return { ...answer, AuthenticationResult: { ...result, RefreshToken: kept.RefreshToken } };
}

/** The caller's address as WAF sees it: the socket's remote address (IPv4 without its `::ffff:` prefix). */
const callerIp = (req: IncomingMessage) => (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');

/** Answers a request the web ACL blocked, as Cognito does. */
function refuseForWaf(res: ServerResponse): void {
  const body = JSON.stringify(COGNITO_WAF_BLOCK.body);
  res.writeHead(COGNITO_WAF_BLOCK.status, {
    'content-type': 'application/x-amz-json-1.1',
    'x-amzn-errortype': COGNITO_WAF_BLOCK.errorType,
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

async function handle(
  upstream: string,
  pendingChallenges: Map<string, PendingChallenge>,
  passwordPolicy: TemplatePasswordPolicy | undefined,
  firewall: WebAclEvaluator | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readBody(req);
  if (firewall) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const decision = firewall.evaluate({ ip: callerIp(req), method: req.method ?? 'GET', uriPath: url.pathname, queryString: url.search.replace(/^\?/, ''), headers, body });
    if (decision.action === 'block') {
      refuseForWaf(res);
      return;
    }
  }
  const target = String(req.headers['x-amz-target'] ?? '');
  // Cognito refuses a new password that breaks the pool's policy; cognito-local would store it.
  const refusal =
    req.method === 'POST' && target.startsWith(TARGET_PREFIX) ? refusePolicyBreak(passwordPolicy, target.slice(TARGET_PREFIX.length), parseJson(body)) : undefined;
  if (refusal) {
    res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': refusal.__type });
    res.end(JSON.stringify(refusal));
    return;
  }
  const request = req.method === 'POST' && (target === `${TARGET_PREFIX}InitiateAuth` || target === `${TARGET_PREFIX}RespondToAuthChallenge`) ? parseJson(body) : undefined;
  const isRefresh = req.method === 'POST' && target === `${TARGET_PREFIX}GetTokensFromRefreshToken`;
  let payload: Buffer | string | undefined = req.method === 'GET' || req.method === 'HEAD' ? undefined : body;
  if (isRefresh) {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body.toString('utf8') || '{}');
    } catch {
      res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify({ __type: 'InvalidParameterException', message: 'Request body is not valid JSON' }));
      return;
    }
    payload = JSON.stringify(refreshRequestAsInitiateAuth(parsed));
  }
  const answer = await fetch(`${upstream}${req.url ?? '/'}`, {
    method: req.method,
    headers: forwardHeaders(req, isRefresh ? 'InitiateAuth' : undefined),
    body: payload as BodyInit | undefined,
  });
  let out = Buffer.from(await answer.arrayBuffer());
  if (isRefresh && answer.ok) {
    // InitiateAuth also answers ChallengeParameters; GetTokensFromRefreshToken has only this.
    const { AuthenticationResult } = JSON.parse(out.toString('utf8'));
    out = Buffer.from(JSON.stringify({ AuthenticationResult }));
  }
  if (request && answer.ok) {
    const now = Date.now();
    for (const [session, p] of pendingChallenges) if (p.until < now) pendingChallenges.delete(session);
    const parsed = parseJson(out);
    const params = (request.AuthParameters ?? {}) as Record<string, string>;
    if (target.endsWith('.InitiateAuth') && parsed?.ChallengeName === 'SOFTWARE_TOKEN_MFA' && typeof parsed.Session === 'string' && params.PASSWORD) {
      pendingChallenges.set(parsed.Session, { clientId: String(request.ClientId), username: params.USERNAME, password: params.PASSWORD, until: now + PENDING_MS });
    } else if (target.endsWith('.RespondToAuthChallenge') && request.ChallengeName === 'SOFTWARE_TOKEN_MFA' && parsed) {
      const pending = pendingChallenges.get(String(request.Session));
      pendingChallenges.delete(String(request.Session));
      if (pending) out = Buffer.from(JSON.stringify(await keepRefreshToken(upstream, pending, parsed)));
    }
  }
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  });
  headers['content-length'] = String(out.length);
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : out);
}

/**
 * Listens on `port` and forwards to cognito-local at `upstream`, refusing new passwords that
 * break `passwordPolicy` (the template pool's) as Cognito does, and requests the pool's web ACL
 * (`firewall`) blocks, as WAF does.
 */
export async function startCognitoFront(port: number, upstream: string, passwordPolicy?: TemplatePasswordPolicy, firewall?: WebAclEvaluator): Promise<CognitoFront> {
  const pendingChallenges = new Map<string, PendingChallenge>();
  const server = createServer((req, res) => {
    handle(upstream, pendingChallenges, passwordPolicy, firewall, req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ __type: 'InternalErrorException', message: `cognito front: ${err.message}` }));
    });
  });
  // Amplify keeps connections open; let close() end them.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => resolve());
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
