// Fetching an image a talent points at (docs/product.md#reports-and-takedown): only from public
// http(s) hosts. The host is resolved at connection time and refused when any of its addresses is
// private, loopback, link-local, unspecified or a metadata address, so a name that resolves to an
// internal address (or starts to, between a check and the request) is never reached. Redirects
// are followed a few times, each checked again; the body is capped in size and the whole in time.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { URL_FETCH_FAILED_MESSAGE, URL_FETCH_MAX_BYTES, URL_FETCH_TIMEOUT_MS, URL_NOT_AN_IMAGE_MESSAGE, URL_NOT_PUBLIC_MESSAGE } from '../../events/report-values';
import { isPlainlyPrivateHost } from '../../events/reports';
import { PayloadTooLargeError, ValidationError } from '../shared/errors';

// Two lists: a BlockList checks an IPv4 address against its IPv6 rules too (as a mapped address).
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) blockedV4.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) blockedV6.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is one the server must never connect to for a caller. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return blockedV4.check(address, 'ipv4');
  // An IPv4 address written as IPv6 (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::a.b.c.d) is judged as that IPv4 address.
  const embedded = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (embedded) return blockedV4.check(embedded, 'ipv4');
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') || lower.startsWith('64:ff9b::')) return true;
  return blockedV6.check(address, 'ipv6');
}

class UrlNotPublicError extends ValidationError {
  constructor(field = 'url') {
    super(`${field} ${URL_NOT_PUBLIC_MESSAGE}`, { [field]: `${field} ${URL_NOT_PUBLIC_MESSAGE}` });
  }
}

type Resolve = (hostname: string) => Promise<LookupAddress[]>;
const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** The URL, when it is http(s) on a host whose every address is public; UrlNotPublicError otherwise. */
export async function assertPublicUrl(value: string, resolve: Resolve = systemResolve, field = 'url'): Promise<URL> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UrlNotPublicError(field);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || isPlainlyPrivateHost(url.hostname)) throw new UrlNotPublicError(field);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  } catch {
    // A name that does not resolve is not reachable: say so as the field's problem.
    throw new ValidationError(`${field}: the host ${host} was not found`, { [field]: `the host ${host} was not found` });
  }
  if (!addresses.length || addresses.some((a) => isPrivateAddress(a.address))) throw new UrlNotPublicError(field);
  return url;
}

/** A connection-time lookup that only ever hands a public address to the socket. */
function publicLookup(resolve: Resolve) {
  return (hostname: string, options: { all?: boolean }, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    resolve(hostname).then(
      (addresses) => {
        if (!addresses.length || addresses.some((a) => isPrivateAddress(a.address))) return callback(new UrlNotPublicError(), '');
        if (options?.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (err: Error) => callback(err, ''),
    );
  };
}

const IMAGE_TYPES = /^(image\/(png|jpeg|webp)|application\/octet-stream)\b/i;
const MAX_REDIRECTS = 3;

/**
 * The image file at a public URL: refused (400) for a private address, 413 beyond the size
 * limit, 400 when it cannot be fetched or is not an image type, all within the time limit.
 */
export async function fetchPublicImage(value: string, resolve: Resolve = systemResolve): Promise<Buffer> {
  let url = await assertPublicUrl(value, resolve);
  const deadline = Date.now() + URL_FETCH_TIMEOUT_MS;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const answer = await getOnce(url, resolve, Math.max(1, deadline - Date.now()));
    if ('redirect' in answer) {
      url = await assertPublicUrl(new URL(answer.redirect, url).toString(), resolve);
      continue;
    }
    return answer.body;
  }
  throw new ValidationError(URL_FETCH_FAILED_MESSAGE, { url: URL_FETCH_FAILED_MESSAGE });
}

function getOnce(url: URL, resolve: Resolve, timeoutMs: number): Promise<{ body: Buffer } | { redirect: string }> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((done, fail) => {
    const failed = (err: unknown) => fail(err instanceof ValidationError || err instanceof PayloadTooLargeError ? err : new ValidationError(URL_FETCH_FAILED_MESSAGE, { url: URL_FETCH_FAILED_MESSAGE }));
    const request = client.get(url, { lookup: publicLookup(resolve) as never, timeout: timeoutMs, headers: { accept: 'image/png,image/jpeg,image/webp' } }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        return done({ redirect: response.headers.location });
      }
      if (status !== 200) {
        response.resume();
        return failed(undefined);
      }
      if (!IMAGE_TYPES.test(response.headers['content-type'] ?? '')) {
        response.resume();
        return failed(new ValidationError(URL_NOT_AN_IMAGE_MESSAGE, { url: URL_NOT_AN_IMAGE_MESSAGE }));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > URL_FETCH_MAX_BYTES) {
          request.destroy();
          failed(new PayloadTooLargeError(`The image at this URL is larger than ${URL_FETCH_MAX_BYTES / 1024 / 1024} MB.`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => done({ body: Buffer.concat(chunks) }));
      response.on('error', failed);
    });
    const timer = setTimeout(() => request.destroy(new Error('timed out')), timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', failed);
  });
}
