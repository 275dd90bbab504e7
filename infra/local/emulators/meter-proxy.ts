// A small HTTP proxy between the functions' AWS_ENDPOINT_URL_* and one emulator, for the twin's
// instruments (decision 018): it meters what AWS bills and injects the faults asked for.
// Requests pass through unchanged (Host kept, so S3 signatures still verify), except that
// DynamoDB calls ask for ConsumedCapacity, which is taken off the answer when the caller did not.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import type { Instruments } from '../instruments';
import { endpointFor, LOOPBACK } from './ports';

export type ProxiedService = 'dynamodb' | 's3' | 'ses';

export interface MeterProxy {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

const DYNAMO_READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const DYNAMO_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startMeterProxy(service: ProxiedService, target: string, instruments: Instruments): Promise<MeterProxy> {
  const upstream = new URL(target);
  const forward = (req: IncomingMessage, body: Buffer | undefined, onAnswer: (res: IncomingMessage) => void, res: ServerResponse) => {
    const headers = { ...req.headers };
    if (body) headers['content-length'] = String(body.length);
    const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, onAnswer);
    out.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`meter proxy: ${err.message}`);
    });
    if (body) out.end(body);
    else req.pipe(out);
  };

  const handlers: Record<ProxiedService, (req: IncomingMessage, res: ServerResponse) => Promise<void>> = {
    async dynamodb(req, res) {
      const body = await readBody(req);
      const op = String(req.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
      const throttled = instruments.throttle();
      if (throttled) {
        const answer = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${throttled}`, message: 'Rate of requests exceeds the allowed throughput (twin fault).' });
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amz-crc32': String(crc32(answer)) }).end(answer);
        return;
      }
      let request: Record<string, unknown> = {};
      try {
        request = body.length ? JSON.parse(body.toString('utf8')) : {};
      } catch {
        // not JSON: let DynamoDB answer it
      }
      const metered = DYNAMO_READS.has(op) || DYNAMO_WRITES.has(op);
      const asked = request.ReturnConsumedCapacity;
      const send = metered && asked !== 'TOTAL' && asked !== 'INDEXES' ? Buffer.from(JSON.stringify({ ...request, ReturnConsumedCapacity: 'TOTAL' })) : body;
      forward(req, send, (up) => {
        void readBody(up).then((raw) => {
          let answer = raw;
          let conditionalFailures = 0;
          if (metered) {
            try {
              const json = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
              if (up.statusCode === 200) {
                const consumed = [json.ConsumedCapacity ?? []].flat() as Array<{ TableName?: string; CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number }>;
                for (const c of consumed) {
                  const units = c.CapacityUnits ?? 0;
                  const read = c.ReadCapacityUnits ?? (DYNAMO_READS.has(op) ? units : 0);
                  const write = c.WriteCapacityUnits ?? (DYNAMO_WRITES.has(op) ? units : 0);
                  instruments.dynamo(c.TableName, read, write);
                }
                if (send !== body && asked !== 'TOTAL') {
                  delete json.ConsumedCapacity;
                  answer = Buffer.from(JSON.stringify(json));
                }
              } else if (/ConditionalCheckFailed|TransactionCanceled/.test(String(json.__type))) {
                // DynamoDB bills a refused conditional write as a write of the item.
                conditionalFailures = 1;
                instruments.dynamo(String(request.TableName ?? '') || undefined, 0, 1);
              }
            } catch {
              // an answer that is not JSON passes through as it is
            }
          }
          instruments.dynamoCall(conditionalFailures);
          const headers: Record<string, string | string[] | undefined> = { ...up.headers, 'content-length': String(answer.length) };
          delete headers['transfer-encoding'];
          if (answer !== raw) headers['x-amz-crc32'] = String(crc32(answer));
          res.writeHead(up.statusCode ?? 500, headers).end(answer);
        });
      }, res);
    },

    async s3(req, res) {
      if (req.method === 'PUT' && instruments.s3PutFails(decodeURIComponent(new URL(req.url ?? '/', 'http://s3').pathname))) {
        // The body read and dropped, then S3's answer to an internal error.
        await readBody(req);
        const answer = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again. (twin fault)</Message></Error>';
        res.writeHead(500, { 'content-type': 'application/xml' }).end(answer);
        return;
      }
      forward(req, undefined, (up) => {
        const ok = (up.statusCode ?? 500) < 300;
        const url = new URL(req.url ?? '/', 'http://s3');
        const method = req.method ?? 'GET';
        if (ok || method === 'OPTIONS') {
          if (method === 'DELETE') instruments.s3('deletes');
          else if (method === 'PUT' || method === 'POST') {
            const copy = req.headers['x-amz-copy-source'] !== undefined;
            const size = Number(req.headers['x-amz-decoded-content-length'] ?? req.headers['content-length'] ?? 0);
            instruments.s3('tier1', method === 'PUT' && !copy ? size : 0);
          } else if (method === 'GET' && isList(url)) instruments.s3('tier1');
          else instruments.s3('tier2');
        }
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      }, res);
    },

    async ses(req, res) {
      const down = instruments.sesDown();
      if (down) {
        instruments.ses('refused');
        if (down === 'refused') {
          req.socket.destroy();
          return;
        }
        res.writeHead(503, { 'content-type': 'application/json', 'x-amzn-errortype': 'ServiceUnavailable' }).end(JSON.stringify({ message: 'Service Unavailable (twin fault)' }));
        return;
      }
      const body = await readBody(req);
      forward(req, body, (up) => {
        if ((up.statusCode ?? 500) < 300) {
          const recipients = sesRecipients(req.url ?? '', body);
          if (recipients >= 0) instruments.ses(recipients);
        }
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      }, res);
    },
  };

  const handle = handlers[service];
  const makeServer = () =>
    createServer((req, res) => {
      handle(req, res).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`meter proxy: ${err.message}`);
      });
    });
  let server: Server = makeServer();
  const listen = (port: number) => new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  const close = () => new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  const port = await listen(0);

  if (service === 'ses') {
    // "SES down" with refused connections: the port closes, and reopens when the fault clears.
    instruments.onSesChange = async (down) => {
      if (down === 'refused') await close();
      else if (!server.listening) {
        server = makeServer();
        await listen(port);
      }
    };
  }

  return { endpoint: endpointFor(port), port, stop: close };
}

/** A bucket-level GET (no key) is a LIST; so is ListObjectsV2 in virtual-host style. */
function isList(url: URL): boolean {
  const parts = url.pathname.split('/').filter(Boolean);
  return parts.length <= 1 && !url.searchParams.has('cors') && !url.searchParams.has('location');
}

/** Recipients of a SES send (v2 JSON or v1 query form); -1 for a call that sends nothing. */
function sesRecipients(path: string, body: Buffer): number {
  const text = body.toString('utf8');
  if (path.includes('/outbound-emails')) {
    try {
      const d = (JSON.parse(text) as { Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] } }).Destination ?? {};
      return (d.ToAddresses?.length ?? 0) + (d.CcAddresses?.length ?? 0) + (d.BccAddresses?.length ?? 0) || 1;
    } catch {
      return 1;
    }
  }
  const form = new URLSearchParams(text);
  const action = form.get('Action');
  if (action !== 'SendEmail' && action !== 'SendRawEmail') return -1;
  const n = [...form.keys()].filter((k) => /^Destination(s|\.(To|Cc|Bcc)Addresses)\.member\.\d+$/.test(k)).length;
  return n || 1;
}
