// The Stripe emulator's HTTP plumbing: bodies read with Stripe's size limit, JSON and HTML
// answers, and the router of the hosted pages each resource registers (Checkout, the billing
// portal, receipts and invoices, Connect onboarding).
import type * as http from 'node:http';
import { StripeApiError } from './form';
import { API_VERSION } from './objects';

const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new StripeApiError(413, 'invalid_request_error', 'The request body is larger than 1 MB.');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A body of bytes (a hosted page's upload), refused with a 413 past `maxBytes`. */
export async function readBytes(req: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > maxBytes) throw new StripeApiError(413, 'invalid_request_error', `The request body is larger than ${maxBytes / 1024 / 1024} MB.`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A hosted page's form, field by field. */
export const formOf = async (req: http.IncomingMessage): Promise<Record<string, string>> => Object.fromEntries(new URLSearchParams(await readBody(req)));

export function sendJson(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'stripe-version': API_VERSION, ...headers }).end(body);
}

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'";

/** A hosted page; `scriptNonce` lets the page's own inline script run (the verification page's camera), and nothing else. */
export function sendHtml(res: http.ServerResponse, status: number, html: string, opts: { scriptNonce?: string } = {}): void {
  const csp = opts.scriptNonce ? `${PAGE_CSP}; script-src 'nonce-${opts.scriptNonce}'; img-src blob:; media-src blob: mediastream:` : PAGE_CSP;
  res
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
    })
    .end(html);
}

export const redirect = (res: http.ServerResponse, location: string): void => void res.writeHead(303, { location }).end();

/** One hosted page's request: the path's groups, and what the browser sent. */
export interface PageRequest {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  match: string[];
  method: string;
  url: URL;
}

type PageHandler = (p: PageRequest) => Promise<void> | void;

/** The hosted pages, each a path pattern with the methods it takes (any, when absent). */
export class Pages {
  private readonly routes: Array<{ path: RegExp; methods?: string[]; handler: PageHandler }> = [];

  on(path: RegExp, methods: string[] | undefined, handler: PageHandler): void {
    this.routes.push({ path, methods, handler });
  }

  /** Serves the page the request is for; false when none is. */
  async serve(req: http.IncomingMessage, res: http.ServerResponse, url: URL, method: string): Promise<boolean> {
    for (const route of this.routes) {
      const m = route.path.exec(url.pathname);
      if (!m || (route.methods && !route.methods.includes(method))) continue;
      await route.handler({ req, res, match: m.slice(1), method, url });
      return true;
    }
    return false;
  }
}
