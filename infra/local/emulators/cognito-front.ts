// A thin HTTP front before cognito-local for the calls it lacks. Amplify 6 refreshes a session
// with GetTokensFromRefreshToken, which cognito-local does not know; Cognito answers it like
// InitiateAuth with REFRESH_TOKEN_AUTH (new id and access tokens, the same refresh token), so
// the front asks cognito-local exactly that. Every other request passes through unchanged.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { LOOPBACK } from './ports';

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

async function handle(upstream: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const target = String(req.headers['x-amz-target'] ?? '');
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
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  });
  headers['content-length'] = String(out.length);
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : out);
}

/** Listens on `port` and forwards to cognito-local at `upstream`. */
export async function startCognitoFront(port: number, upstream: string): Promise<CognitoFront> {
  const server = createServer((req, res) => {
    handle(upstream, req, res).catch((err: Error) => {
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
