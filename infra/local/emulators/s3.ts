// S3: s3rver (in-process, files in a temp dir) behind a front proxy that checks what S3 checks and
// s3rver does not: SigV4 signatures (header and presigned), expiry, payload hashes and checksums.
// Browsers upload straight to the public port with presigned PUTs, so CORS passes through and
// preflights (which carry no signature) are never rejected.
import { randomBytes } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  decodeAwsChunked,
  s3ErrorXml,
  STREAMING_SIGNED_PAYLOAD,
  STREAMING_SIGNED_PAYLOAD_TRAILER,
  UNSIGNED_PAYLOAD,
  verifyBodyIntegrity,
  verifyS3Request,
  type S3AuthFailure,
  type S3Credentials,
} from '../s3-signature';
import { endpointFor, LOOPBACK, makeTempDir, TWIN_CREDENTIALS, TWIN_REGION, type EmulatorHandle, type EmulatorOptions } from './ports';

// s3rver ships no type declarations; this is the part of its API we use.
interface S3rverCorsRule {
  hasWildcardOrigin: boolean;
  exposeHeaders: string[];
  maxAgeSeconds?: number;
}
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  on(event: 'event', listener: (event: S3rverEvent) => void): void;
  httpServer?: import('node:http').Server;
  store: {
    getSubresource(bucket: string, key: undefined, type: 'cors'): Promise<{ matchRule(origin: string, method: string): S3rverCorsRule | undefined } | undefined>;
  };
}
interface S3rverEvent {
  Records: Array<{
    eventName: string;
    eventTime: string;
    s3: { bucket: { name: string }; object: { key: string; size?: number; eTag?: string } };
  }>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver: new (options: Record<string, unknown>) => S3rverInstance = require('s3rver');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const s3rverAccounts: { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } } = require('s3rver/lib/models/account');

export interface S3ObjectCreatedEvent {
  bucket: string;
  /** The object key as stored (s3rver does not encode it; the twin encodes it as S3 does when it builds the EventBridge event). */
  key: string;
  size: number;
  etag?: string;
  /** ISO 8601 */
  eventTime: string;
  /** `ObjectCreated:Put`, `ObjectCreated:Post` (multipart complete), `ObjectCreated:Copy` */
  eventName: string;
}

export interface S3Options extends EmulatorOptions {
  /** Keep objects here (kept on stop). Default: a temp dir removed on stop. */
  dir?: string;
  /** Key pairs accepted by the signature check. Default: TWIN_CREDENTIALS. */
  credentials?: S3Credentials[];
  /** Region every SigV4 scope must name. Default: TWIN_REGION. */
  region?: string;
  /** Let unsigned requests through (S3 only does for public buckets). Default false. */
  allowAnonymous?: boolean;
}

export interface S3Emulator extends EmulatorHandle {
  /** Called (asynchronously) after every successful object creation; returns an unsubscribe function. */
  onObjectCreated(cb: (event: S3ObjectCreatedEvent) => void | Promise<void>): () => void;
  /** Where objects are stored. */
  dir: string;
  /** s3rver itself, without signature checks: for debugging only. */
  internalEndpoint: string;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startS3(opts: S3Options = {}): Promise<S3Emulator> {
  const credentials = opts.credentials ?? [{ ...TWIN_CREDENTIALS }];
  const region = opts.region ?? TWIN_REGION;
  const tempDir = opts.dir ? undefined : await makeTempDir('twin-s3-');
  const dir = opts.dir ?? tempDir!.path;

  // s3rver refuses unknown access key ids even though it never checks V4 signatures.
  for (const c of credentials) s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(c.accessKeyId, c.secretAccessKey);
  const s3rver = new S3rver({
    address: LOOPBACK,
    port: 0,
    silent: !opts.verbose,
    directory: dir,
    resetOnClose: false,
    // Path-style only: never reinterpret a Host header as a bucket name.
    vhostBuckets: false,
    configureBuckets: [],
  });
  const { port: internalPort } = await s3rver.run();
  // The front keeps connections to it alive: let them idle far longer than Node's 5 s default,
  // so a pooled connection is rarely closed just as it is reused (the retry in `forward` covers the rest).
  if (s3rver.httpServer) s3rver.httpServer.keepAliveTimeout = 60_000;
  const internalEndpoint = endpointFor(internalPort);

  const listeners = new Set<(event: S3ObjectCreatedEvent) => void | Promise<void>>();
  const reportListenerError = (err: unknown) => {
    // A failing consumer is a bug worth seeing even when the emulator is quiet.
    console.error('[s3] onObjectCreated listener failed:', err);
  };
  s3rver.on('event', (event) => {
    for (const record of event.Records ?? []) {
      if (!record.eventName.startsWith('ObjectCreated')) continue;
      const created: S3ObjectCreatedEvent = {
        bucket: record.s3.bucket.name,
        key: record.s3.object.key,
        size: record.s3.object.size ?? 0,
        etag: record.s3.object.eTag,
        eventTime: record.eventTime,
        eventName: record.eventName,
      };
      setImmediate(() => {
        for (const listener of listeners) {
          try {
            const result = listener(created);
            if (result && typeof (result as Promise<void>).catch === 'function') (result as Promise<void>).catch(reportListenerError);
          } catch (err) {
            reportListenerError(err);
          }
        }
      });
    }
  });

  const agent = new Agent({ keepAlive: true });

  /** CORS headers S3 adds to a response (errors included) when a bucket rule matches the Origin. */
  async function corsHeaders(req: IncomingMessage): Promise<Record<string, string>> {
    const origin = req.headers.origin;
    const bucket = decodeURIComponent((req.url ?? '/').split('?')[0].split('/')[1] ?? '');
    if (!origin || !bucket) return {};
    try {
      const config = await s3rver.store.getSubresource(bucket, undefined, 'cors');
      const rule = config?.matchRule(origin, req.method ?? 'GET');
      if (!rule) return {};
      const headers: Record<string, string> = {
        'Access-Control-Allow-Origin': rule.hasWildcardOrigin ? '*' : origin,
        'Access-Control-Allow-Credentials': 'true',
        Vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
      };
      if (rule.exposeHeaders.length) headers['Access-Control-Expose-Headers'] = rule.exposeHeaders.join(', ');
      return headers;
    } catch {
      return {};
    }
  }

  async function preflightMaxAge(req: IncomingMessage): Promise<number | undefined> {
    const origin = req.headers.origin;
    const method = req.headers['access-control-request-method'];
    const bucket = decodeURIComponent((req.url ?? '/').split('?')[0].split('/')[1] ?? '');
    if (!origin || !method || !bucket) return undefined;
    try {
      const config = await s3rver.store.getSubresource(bucket, undefined, 'cors');
      return config?.matchRule(origin, String(method))?.maxAgeSeconds ?? undefined;
    } catch {
      return undefined;
    }
  }

  async function reject(req: IncomingMessage, res: ServerResponse, failure: S3AuthFailure, requestId: string) {
    const body = s3ErrorXml(failure.code, failure.message, failure.details, requestId);
    res.writeHead(failure.status, {
      'Content-Type': 'application/xml',
      'Content-Length': Buffer.byteLength(body),
      'x-amz-request-id': requestId,
      ...(await corsHeaders(req)),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    if (opts.verbose) console.log(`[s3] ${req.method} ${req.url} -> ${failure.status} ${failure.code}: ${failure.message}`);
  }

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer | undefined,
    headers: IncomingMessage['headers'],
    extraResponseHeaders: Record<string, string> = {},
    attempt = 0,
  ) {
    // Without a body to stream (buffered, or a GET/HEAD), the request can be sent again.
    const bodiless = req.method === 'GET' || req.method === 'HEAD';
    const upstream = httpRequest(
      // A second attempt takes a connection of its own: the pool may hold more that were closed.
      { host: LOOPBACK, port: internalPort, method: req.method, path: req.url, headers, agent: attempt === 0 ? agent : false },
      (up) => {
        const raw = [...up.rawHeaders];
        if ((up.statusCode ?? 500) < 300) for (const [k, v] of Object.entries(extraResponseHeaders)) raw.push(k, v);
        res.writeHead(up.statusCode ?? 502, raw);
        up.pipe(res);
      },
    );
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (res.headersSent) {
        res.destroy(err);
        return;
      }
      // Node's documented keep-alive race: the backend closed an idle connection just as it was
      // reused. Nothing reached the backend, so the request goes once more on a new connection.
      if (attempt === 0 && upstream.reusedSocket && err.code === 'ECONNRESET' && (body !== undefined || bodiless)) {
        forward(req, res, body, headers, extraResponseHeaders, 1);
        return;
      }
      const xml = s3ErrorXml('InternalError', `Local S3 backend failed: ${err.message}`);
      res.writeHead(500, { 'Content-Type': 'application/xml' });
      res.end(xml);
    });
    if (body) upstream.end(body);
    else if (bodiless) upstream.end();
    else req.pipe(upstream);
  }

  /** `/{bucket}/{key}` of an object request without a subresource (uploads of parts excluded), else undefined. */
  function objectPath(url: string | undefined): string | undefined {
    const [pathname, query = ''] = (url ?? '/').split('?');
    const parts = pathname.split('/');
    if (parts.length < 3 || !parts[2]) return undefined;
    if (/(^|&)(uploadId|partNumber|tagging|acl|retention|legal-hold)=?/.test(query)) return undefined;
    return pathname;
  }
  const headerOnce = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim();
  /** Keys with a conditional write under way. */
  const writing = new Set<string>();
  function objectExists(pathname: string): Promise<boolean> {
    return new Promise((resolve, rejectHead) => {
      const head = httpRequest({ host: LOOPBACK, port: internalPort, method: 'HEAD', path: pathname, agent }, (up) => {
        up.resume();
        resolve(up.statusCode === 200);
      });
      head.on('error', rejectHead);
      head.end();
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    // CORS preflights carry no signature, in S3 as here; s3rver answers them from the bucket's CORS
    // but leaves out the rule's MaxAgeSeconds, which S3 sends.
    if (req.method === 'OPTIONS') {
      const maxAge = await preflightMaxAge(req);
      return forward(req, res, undefined, req.headers, maxAge === undefined ? {} : { 'Access-Control-Max-Age': String(maxAge) });
    }

    const auth = verifyS3Request(
      { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headersDistinct },
      { credentials, region },
    );
    if (!auth.ok || (auth.kind === 'anonymous' && !opts.allowAnonymous)) {
      req.resume();
      const failure: S3AuthFailure = auth.ok ? { ok: false, status: 403, code: 'AccessDenied', message: 'Access Denied' } : auth;
      return reject(req, res, failure, requestId);
    }
    if (req.method !== 'PUT' && req.method !== 'POST') return forward(req, res, undefined, req.headers);

    // Conditional writes: `If-None-Match: *` writes only a new key (S3 answers 412 when it
    // exists, 409 to the loser of two concurrent conditional writes). s3rver ignores the header.
    const conditional = req.method === 'PUT' && headerOnce(req.headers['if-none-match']) === '*' && objectPath(req.url);
    if (conditional) {
      if (writing.has(conditional)) {
        req.resume();
        return reject(req, res, { ok: false, status: 409, code: 'ConditionalRequestConflict', message: 'A conflicting conditional operation is currently in progress against this resource. Please try again.' }, requestId);
      }
      writing.add(conditional);
      res.once('close', () => writing.delete(conditional));
      if (await objectExists(conditional)) {
        req.resume();
        return reject(req, res, { ok: false, status: 412, code: 'PreconditionFailed', message: 'At least one of the pre-conditions you specified did not hold', details: { Condition: 'If-None-Match' } }, requestId);
      }
    }

    // Bodies are buffered: the digests have to be checked before s3rver stores anything.
    let body = await readBody(req);
    const headers = { ...req.headers };
    let trailers: Record<string, string> | undefined;
    const payloadHash = auth.kind === 'anonymous' ? undefined : auth.payloadHash;
    if (auth.kind !== 'anonymous' && auth.payloadHash.startsWith('STREAMING-')) {
      // aws-chunked (SDK streaming uploads): s3rver would store the chunk framing, so decode here.
      const signed = auth.payloadHash === STREAMING_SIGNED_PAYLOAD || auth.payloadHash === STREAMING_SIGNED_PAYLOAD_TRAILER;
      try {
        ({ body, trailers } = decodeAwsChunked(body, signed ? auth.signing : undefined));
      } catch (err) {
        const message = (err as Error).message;
        const failure: S3AuthFailure = /signature/.test(message)
          ? { ok: false, status: 403, code: 'SignatureDoesNotMatch', message }
          : { ok: false, status: 400, code: 'IncompleteBody', message };
        return reject(req, res, failure, requestId);
      }
      const declared = req.headers['x-amz-decoded-content-length'];
      if (declared !== undefined && Number(declared) !== body.length) {
        return reject(req, res, { ok: false, status: 400, code: 'IncompleteBody', message: 'You did not provide the number of bytes specified by the x-amz-decoded-content-length header' }, requestId);
      }
      const encodings = (headers['content-encoding'] ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e && e !== 'aws-chunked');
      if (encodings.length) headers['content-encoding'] = encodings.join(',');
      else delete headers['content-encoding'];
      delete headers['x-amz-decoded-content-length'];
      delete headers['x-amz-trailer'];
      headers['x-amz-content-sha256'] = UNSIGNED_PAYLOAD;
    }
    const integrity = verifyBodyIntegrity(body, { headers: req.headersDistinct, url: req.url ?? '/', payloadHash, trailers });
    if (integrity) return reject(req, res, integrity, requestId);
    delete headers['transfer-encoding'];
    headers['content-length'] = String(body.length);
    forward(req, res, body, headers);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (res.headersSent) {
        res.destroy(err);
        return;
      }
      const xml = s3ErrorXml('InternalError', err.message);
      res.writeHead(500, { 'Content-Type': 'application/xml' });
      res.end(xml);
    });
  });
  // Clients (browsers, tests' fetch) keep connections to the front alive as the Keep-Alive hint
  // allows: a long idle time makes a connection closed just as a busy client reuses it rare.
  server.keepAliveTimeout = 60_000;
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, LOOPBACK, () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
  } catch (err) {
    agent.destroy();
    await s3rver.close();
    await tempDir?.release();
    throw new Error(`S3 emulator could not listen on ${LOOPBACK}:${opts.port}: ${(err as Error).message}`, { cause: err });
  }

  let stopped: Promise<void> | undefined;
  return {
    endpoint: endpointFor(port),
    port,
    dir,
    internalEndpoint,
    onObjectCreated(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    stop() {
      stopped ??= (async () => {
        listeners.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        agent.destroy();
        s3rver.httpServer?.closeAllConnections();
        await s3rver.close();
        await tempDir?.release();
      })();
      return stopped;
    },
  };
}
