import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { LOCAL_ACCOUNT, resourcesOfType, type CfnTemplate, type Resolver } from './template';
import { listenOnLoopback } from './emulators/ports';

/** API Gateway refuses HTTP API payloads over 10 MB. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

interface JwtAuthorizer {
  issuer: string;
  audience: string[];
  verify: (token: string) => Promise<Record<string, unknown>>;
}

export interface LocalRoute {
  logicalId: string;
  routeKey: string;
  method: string;
  pathPattern: RegExp;
  paramNames: string[];
  functionArn: string;
  authorizer?: JwtAuthorizer;
}

interface Cors {
  allowOrigins: string[];
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAge?: number;
  allowCredentials?: boolean;
}

export interface GatewayOptions {
  invoke: (arn: string, event: unknown) => Promise<unknown>;
  /** Maps an issuer in the template (Cognito's AWS URL) to the emulator's issuer and JWKS. */
  jwtIssuer: (templateIssuer: string) => { issuer: string; jwksUri: string };
  log?: (line: string) => void;
}

/** The header CloudFront sets to the viewer's `ip:port`, overwriting any value the client sent. */
const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/**
 * API Gateway's audience check for JWT authorizers: a token with an `aud` claim must name one
 * of the audiences; a token without one (Cognito's access tokens) must carry a `client_id`
 * that is one of them.
 */
export function audienceAccepted(claims: Record<string, unknown>, audience: string[]): boolean {
  if (claims.aud !== undefined) {
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    return aud.some((a) => typeof a === 'string' && audience.includes(a));
  }
  return typeof claims.client_id === 'string' && audience.includes(claims.client_id);
}

/**
 * The template's HTTP API on one local port: each `AWS::ApiGatewayV2::Route` is served by
 * its integration's function with a payload-2.0 event; JWT routes verify the bearer token
 * the way API Gateway's JWT authorizer does (signature, issuer, expiry, and `aud` or else
 * `client_id` against the audiences); CORS follows the API's CorsConfiguration.
 *
 * It also stands in for the API's CloudFront distribution: every request gets
 * `cloudfront-viewer-address` from the socket's remote address (so tests can be distinct
 * callers from 127.0.0.2, 127.0.0.3, ...) and the distribution's origin headers (the
 * origin-verify secret), overwriting whatever the client sent under those names.
 */
export class HttpApiGateway {
  readonly routes: LocalRoute[] = [];
  readonly unsupported: string[] = [];
  private cors?: Cors;
  private server?: http.Server;
  private apiId = 'local';
  /** Headers the API's distribution adds to every request it forwards (lower-case names). */
  readonly edgeHeaders: Record<string, string> = {};

  constructor(template: CfnTemplate, resolver: Resolver, private readonly opts: GatewayOptions) {
    const apis = resourcesOfType(template, 'AWS::ApiGatewayV2::Api');
    if (apis.length > 1) this.unsupported.push('more than one HTTP API');
    const [apiLogicalId, api] = apis[0] ?? [];
    if (api) {
      this.apiId = apiLogicalId!;
      const c = resolver.resolve(api.Properties?.CorsConfiguration);
      if (c) {
        this.cors = {
          allowOrigins: c.AllowOrigins ?? [],
          allowMethods: (c.AllowMethods ?? []).map((m: string) => m.toUpperCase()),
          allowHeaders: (c.AllowHeaders ?? []).map((h: string) => h.toLowerCase()),
          exposeHeaders: c.ExposeHeaders ?? [],
          maxAge: c.MaxAge,
          allowCredentials: c.AllowCredentials,
        };
      }
    }
    const integrations = new Map(resourcesOfType(template, 'AWS::ApiGatewayV2::Integration'));
    const authorizers = new Map<string, JwtAuthorizer>();
    for (const [id, a] of resourcesOfType(template, 'AWS::ApiGatewayV2::Authorizer')) {
      const props = resolver.resolve(a.Properties);
      if (props.AuthorizerType !== 'JWT') continue;
      const local = opts.jwtIssuer(props.JwtConfiguration.Issuer);
      const audience: string[] = props.JwtConfiguration.Audience;
      // The audience is checked below, as API Gateway does (aud, else client_id).
      const verifier = JwtRsaVerifier.create(
        { issuer: local.issuer, audience: null, jwksUri: local.jwksUri },
        { jwksCache: new SimpleJwksCache({ fetcher: { fetch: async (uri: string) => (await fetch(uri)).arrayBuffer() } }) },
      );
      authorizers.set(id, {
        issuer: local.issuer,
        audience,
        verify: async (token) => {
          const claims = (await verifier.verify(token)) as Record<string, unknown>;
          if (!audienceAccepted(claims, audience)) throw new Error('Token audience not accepted');
          return claims;
        },
      });
    }

    // The API's distribution: the one whose origin is this API's execute-api host.
    for (const [, d] of resourcesOfType(template, 'AWS::CloudFront::Distribution')) {
      for (const origin of d.Properties?.DistributionConfig?.Origins ?? []) {
        if (!apiLogicalId || !JSON.stringify(origin.DomainName ?? '').includes(`"Ref":"${apiLogicalId}"`)) continue;
        for (const h of origin.OriginCustomHeaders ?? []) this.edgeHeaders[String(h.HeaderName).toLowerCase()] = String(resolver.resolve(h.HeaderValue));
      }
    }

    for (const [logicalId, route] of resourcesOfType(template, 'AWS::ApiGatewayV2::Route')) {
      const props = route.Properties ?? {};
      const routeKey: string = props.RouteKey;
      try {
        const target = props.Target?.['Fn::Join']?.[1]?.[1]?.Ref as string | undefined;
        const integration = target && integrations.get(target);
        if (!integration) throw new Error('no integration');
        const ip = integration.Properties ?? {};
        if (ip.IntegrationType !== 'AWS_PROXY' || ip.PayloadFormatVersion !== '2.0') {
          throw new Error(`integration ${ip.IntegrationType} ${ip.PayloadFormatVersion} is not served`);
        }
        const functionArn = resolver.resolve(ip.IntegrationUri);
        let authorizer: JwtAuthorizer | undefined;
        if (props.AuthorizationType === 'JWT') {
          authorizer = authorizers.get(props.AuthorizerId?.Ref);
          if (!authorizer) throw new Error('JWT authorizer not found');
        } else if (props.AuthorizationType && props.AuthorizationType !== 'NONE') {
          throw new Error(`authorization ${props.AuthorizationType} is not served`);
        }
        const [method, path] = routeKey === '$default' ? ['ANY', '/{proxy+}'] : routeKey.split(' ');
        const paramNames: string[] = [];
        const pattern = path
          .split('/')
          .map((seg) => {
            const m = /^\{(.+?)(\+)?\}$/.exec(seg);
            if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            paramNames.push(m[1]);
            return m[2] ? '(.+)' : '([^/]+)';
          })
          .join('/');
        this.routes.push({ logicalId, routeKey, method, pathPattern: new RegExp(`^${pattern}$`), paramNames, functionArn, authorizer });
      } catch (err) {
        this.unsupported.push(`${routeKey}: ${(err as Error).message}`);
      }
    }
    // Most specific first, as API Gateway matches: fixed paths before parameters before greedy ones.
    this.routes.sort((a, b) => specificity(b.routeKey) - specificity(a.routeKey));
  }

  async listen(port: number): Promise<string> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        this.opts.log?.(`gateway error: ${(err as Error).message}`);
        if (!res.headersSent) send(res, 500, { message: 'Internal Server Error' });
      });
    });
    this.server.keepAliveTimeout = 30_000;
    await listenOnLoopback(this.server, port);
    const address = this.server.address() as { port: number };
    return `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
  }

  private corsHeaders(origin: string | undefined): Record<string, string> {
    if (!this.cors || !origin) return {};
    const allowed = this.cors.allowOrigins.includes('*') || this.cors.allowOrigins.includes(origin);
    if (!allowed) return {};
    const headers: Record<string, string> = {
      'access-control-allow-origin': this.cors.allowOrigins.includes('*') ? '*' : origin,
      vary: 'Origin',
    };
    if (this.cors.exposeHeaders.length) headers['access-control-expose-headers'] = this.cors.exposeHeaders.join(',');
    if (this.cors.allowCredentials) headers['access-control-allow-credentials'] = 'true';
    return headers;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const origin = req.headers.origin;

    if (method === 'OPTIONS' && this.cors && req.headers['access-control-request-method']) {
      const cors = this.corsHeaders(origin);
      const wanted = String(req.headers['access-control-request-method']).toUpperCase();
      const wantedHeaders = String(req.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean);
      const ok =
        cors['access-control-allow-origin'] &&
        (this.cors.allowMethods.includes('*') || this.cors.allowMethods.includes(wanted)) &&
        wantedHeaders.every((h) => this.cors!.allowHeaders.includes('*') || this.cors!.allowHeaders.includes(h));
      if (!ok) {
        res.writeHead(204).end();
        return;
      }
      res
        .writeHead(204, {
          ...cors,
          'access-control-allow-methods': this.cors.allowMethods.join(','),
          'access-control-allow-headers': this.cors.allowHeaders.join(','),
          ...(this.cors.maxAge ? { 'access-control-max-age': String(this.cors.maxAge) } : {}),
        })
        .end();
      return;
    }

    const cors = this.corsHeaders(origin);
    const route = this.routes.find((r) => (r.method === 'ANY' || r.method === method) && r.pathPattern.test(url.pathname));
    if (!route) {
      send(res, 404, { message: 'Not Found' }, cors);
      return;
    }

    const body = await readBody(req);
    if (body === undefined) {
      send(res, 413, { message: 'Request Entity Too Large' }, cors);
      return;
    }

    let claims: Record<string, unknown> | undefined;
    if (route.authorizer) {
      const header = req.headers.authorization ?? '';
      const token = /^Bearer\s+(.+)$/i.exec(header)?.[1] ?? header;
      if (!token) {
        send(res, 401, { message: 'Unauthorized' }, { ...cors, 'www-authenticate': 'Bearer' });
        return;
      }
      try {
        claims = await route.authorizer.verify(token);
      } catch {
        send(res, 401, { message: 'Unauthorized' }, { ...cors, 'www-authenticate': 'Bearer error="invalid_token"' });
        return;
      }
    }

    const match = route.pathPattern.exec(url.pathname)!;
    let pathParameters: Record<string, string>;
    try {
      pathParameters = Object.fromEntries(route.paramNames.map((n, i) => [n, decodeURIComponent(match[i + 1])]));
    } catch {
      // A malformed percent-encoding (a bare `%`, bytes that are not UTF-8) is the caller's error, not the function's.
      send(res, 400, { message: 'Bad Request' }, cors);
      return;
    }
    const event = buildEvent(req, url, route, body, pathParameters, claims, this.apiId, this.edgeHeaders);

    let result: unknown;
    try {
      result = await this.opts.invoke(route.functionArn, event);
    } catch (err) {
      this.opts.log?.(`${route.routeKey} failed: ${(err as Error).name}: ${(err as Error).message}`);
      send(res, 500, { message: 'Internal Server Error' }, cors);
      return;
    }
    writeResult(res, result, cors);
  }
}

function specificity(routeKey: string): number {
  if (routeKey === '$default') return -1;
  const path = routeKey.split(' ')[1] ?? '';
  const segments = path.split('/').filter(Boolean);
  return segments.reduce((n, s) => n + (s.endsWith('+}') ? 0 : s.startsWith('{') ? 1 : 2), 0) * 10 + (routeKey.startsWith('ANY') ? 0 : 1);
}

async function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) {
      req.resume();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|x-www-form-urlencoded|javascript)|[^;]*\+json|[^;]*\+xml)/i;

function buildEvent(
  req: http.IncomingMessage,
  url: URL,
  route: LocalRoute,
  body: Buffer,
  pathParameters: Record<string, string>,
  claims: Record<string, unknown> | undefined,
  apiId: string,
  edgeHeaders: Record<string, string>,
) {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    const value = req.rawHeaders[i + 1];
    if (name === 'cookie') cookies.push(...value.split(';').map((c) => c.trim()));
    else headers[name] = headers[name] ? `${headers[name]},${value}` : value;
  }
  // What CloudFront sets, never what the client sent.
  headers[VIEWER_ADDRESS_HEADER] = `${(req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '')}:${req.socket.remotePort ?? 0}`;
  Object.assign(headers, edgeHeaders);
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] ? `${query[k]},${v}` : v;
  const contentType = headers['content-type'] ?? '';
  const isText = !body.length || TEXT_TYPES.test(contentType);
  const now = new Date();
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    cookies: cookies.length ? cookies : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: LOCAL_ACCOUNT,
      apiId,
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: '127',
      http: {
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: route.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
      // API Gateway hands claims to the function as strings; arrays become "[a b]".
      authorizer: claims
        ? {
            jwt: {
              claims: Object.fromEntries(
                Object.entries(claims).map(([k, v]) => [k, Array.isArray(v) ? `[${v.join(' ')}]` : String(v)]),
              ),
              scopes: null,
            },
          }
        : undefined,
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Payload 2.0 response mapping, including API Gateway's inference for bare results. */
function writeResult(res: http.ServerResponse, output: unknown, cors: Record<string, string>): void {
  if (output === null || typeof output !== 'object' || !('statusCode' in output)) {
    const body = typeof output === 'string' ? output : JSON.stringify(output ?? null);
    res.writeHead(200, { 'content-type': 'application/json', ...cors }).end(body);
    return;
  }
  const result = output as { statusCode: unknown; headers?: Record<string, string>; cookies?: string[]; body?: unknown; isBase64Encoded?: boolean };
  const headers: Record<string, string | string[]> = { ...(result.headers ?? {}), ...cors };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(String(result.body), 'base64') : String(result.body);
  res.writeHead(Number(result.statusCode), headers).end(body);
}
