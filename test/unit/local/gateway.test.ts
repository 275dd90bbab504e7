import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientIpOf } from '../../../functions/shared/rate-limit';
import type { HttpEvent } from '../../../functions/shared/http';
import { audienceAccepted, HttpApiGateway } from '../../../infra/local/gateway';
import { Resolver, type CfnTemplate } from '../../../infra/local/template';

const ISSUER = 'https://cognito-idp.us-east-1.amazonaws.com/pool';
const ADMIN_CLIENT = 'admin-client';
const SECRET_REF = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: 'OriginVerify' }, ':SecretString:::}}']] };

/** A template with the API, one JWT route and one public route, and the API's distribution. */
const template: CfnTemplate = {
  Resources: {
    Api: { Type: 'AWS::ApiGatewayV2::Api', Properties: {} },
    Fn: { Type: 'AWS::Lambda::Function', Properties: {} },
    OriginVerify: { Type: 'AWS::SecretsManager::Secret', Properties: {} },
    Integration: { Type: 'AWS::ApiGatewayV2::Integration', Properties: { IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0', IntegrationUri: { 'Fn::GetAtt': ['Fn', 'Arn'] } } },
    Authorizer: { Type: 'AWS::ApiGatewayV2::Authorizer', Properties: { AuthorizerType: 'JWT', JwtConfiguration: { Issuer: ISSUER, Audience: [ADMIN_CLIENT] } } },
    AdminRoute: {
      Type: 'AWS::ApiGatewayV2::Route',
      Properties: { RouteKey: 'GET /admin/things', AuthorizationType: 'JWT', AuthorizerId: { Ref: 'Authorizer' }, Target: { 'Fn::Join': ['', ['integrations/', { Ref: 'Integration' }]] } },
    },
    PublicRoute: { Type: 'AWS::ApiGatewayV2::Route', Properties: { RouteKey: 'POST /things', Target: { 'Fn::Join': ['', ['integrations/', { Ref: 'Integration' }]] } } },
    PublicThing: { Type: 'AWS::ApiGatewayV2::Route', Properties: { RouteKey: 'GET /things/{id}', Target: { 'Fn::Join': ['', ['integrations/', { Ref: 'Integration' }]] } } },
    ApiDistribution: {
      Type: 'AWS::CloudFront::Distribution',
      Properties: {
        DistributionConfig: {
          Origins: [{ DomainName: { 'Fn::Join': ['', [{ Ref: 'Api' }, '.execute-api.', { Ref: 'AWS::Region' }, '.amazonaws.com']] }, OriginCustomHeaders: [{ HeaderName: 'x-origin-verify', HeaderValue: SECRET_REF }] }],
        },
      },
    },
  },
};

const b64 = (v: object | Buffer) => (Buffer.isBuffer(v) ? v : Buffer.from(JSON.stringify(v))).toString('base64url');
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
function token(key: KeyObject, claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const data = `${b64({ alg: 'RS256', kid: 'k1', typ: 'JWT' })}.${b64({ iss: ISSUER, iat: now, exp: now + 600, ...claims })}`;
  return `${data}.${b64(sign('sha256', Buffer.from(data), key))}`;
}

let jwks: http.Server;
let gateway: HttpApiGateway;
let base: string;
const events: HttpEvent[] = [];

beforeAll(async () => {
  jwks = http.createServer((_, res) => res.end(JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }] })));
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
  const resolver = new Resolver(template);
  for (const id of Object.keys(template.Resources)) resolver.set(id, { ref: id, attrs: { Arn: `arn:local:${id}` } });
  gateway = new HttpApiGateway(template, resolver, {
    invoke: async (_arn, event) => {
      events.push(event as HttpEvent);
      return { statusCode: 200, body: 'ok' };
    },
    jwtIssuer: () => ({ issuer: ISSUER, jwksUri: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json` }),
  });
  base = await gateway.listen(0);
});
afterAll(async () => {
  await gateway.close();
  await new Promise((r) => jwks.close(r));
});

/** A request from a chosen loopback address. */
function call(method: string, path: string, headers: Record<string, string>, localAddress = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}
const bearer = (claims: Record<string, unknown>) => ({ authorization: `Bearer ${token(privateKey, claims)}` });

describe('twin gateway: JWT audience as API Gateway checks it', () => {
  it('accepts an access token without aud whose client_id is an audience (Cognito access tokens)', async () => {
    expect(await call('GET', '/admin/things', bearer({ client_id: ADMIN_CLIENT, token_use: 'access' }))).toBe(200);
  });

  it('accepts an id token whose aud is an audience', async () => {
    expect(await call('GET', '/admin/things', bearer({ aud: ADMIN_CLIENT, token_use: 'id' }))).toBe(200);
  });

  it('refuses a token of another client, by aud or by client_id, and one with neither', async () => {
    expect(await call('GET', '/admin/things', bearer({ client_id: 'web-client' }))).toBe(401);
    expect(await call('GET', '/admin/things', bearer({ aud: 'web-client' }))).toBe(401);
    expect(await call('GET', '/admin/things', bearer({}))).toBe(401);
  });

  it('judges by aud when a token has one, whatever its client_id says', () => {
    expect(audienceAccepted({ aud: 'web-client', client_id: ADMIN_CLIENT }, [ADMIN_CLIENT])).toBe(false);
    expect(audienceAccepted({ aud: ['x', ADMIN_CLIENT] }, [ADMIN_CLIENT])).toBe(true);
  });
});

describe('twin gateway: standing in for the API distribution', () => {
  it('sets the viewer address from the socket and the origin-verify header from the template, over what the client sent', async () => {
    events.length = 0;
    const forged = { 'cloudfront-viewer-address': '203.0.113.9:1', 'x-origin-verify': 'guess' };
    expect(await call('POST', '/things', forged, '127.0.0.2')).toBe(200);
    expect(await call('POST', '/things', forged, '127.0.0.3')).toBe(200);
    const secret = new Resolver(template);
    secret.set('OriginVerify', { ref: 'OriginVerify' });
    const expected = secret.resolve(SECRET_REF);
    expect(events.map((e) => e.headers['x-origin-verify'])).toEqual([expected, expected]);
    // The functions, holding the same secret, see two distinct callers.
    expect(events.map((e) => clientIpOf(e, expected))).toEqual(['127.0.0.2', '127.0.0.3']);
  });
});

describe('twin gateway: path parameters', () => {
  it('answers a malformed percent-encoding with 400 before any function runs, and decodes a good one (found by the fuzzing check)', async () => {
    events.length = 0;
    for (const bad of ['%', '%E0%A4%A', '%FF%FE', '%ED%A0%80']) expect(await call('GET', `/things/${bad}`, {})).toBe(400);
    expect(events).toEqual([]);
    expect(await call('GET', '/things/caf%C3%A9%20%F0%9F%98%80', {})).toBe(200);
    expect(events.map((e) => e.pathParameters?.id)).toEqual(['café 😀']);
  });
});
