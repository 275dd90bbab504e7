import * as http from 'node:http';

/**
 * Callers from networks of their own, for the per-network limits of the public routes. The twin's
 * gateway takes the caller's address from the socket (as CloudFront does before it sets
 * `cloudfront-viewer-address`), and all of 127.0.0.0/8 is loopback on Linux, so a test connects
 * from a loopback address of its own.
 */
// Jest gives each test file its own module registry, in the same process: a random start keeps
// two files of one worker (and two workers) apart.
let next = Math.floor(Math.random() * 40 * 250 * 250);
/** A loopback address no other caller is likely to use (127.210-249.x.y; the waitlist's helpers use lower ones). */
export function freshAddress(): string {
  const n = next++ % (40 * 250 * 250);
  return `127.${210 + Math.floor(n / (250 * 250))}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

export interface FromAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body of any shape; each test asserts the one it expects
  json: any;
  text: string;
  ms: number;
}

/** POSTs JSON from the local address `from`. */
export function postJsonFrom(from: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<FromAnswer> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', localAddress: from, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json, text, ms: performance.now() - started });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
