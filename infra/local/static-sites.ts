import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { resourcesOfType, type CfnTemplate, type Resolver } from './template';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/**
 * The security headers a distribution's response-headers policy adds, read from the
 * template. The browser's connect-src hosts in AWS are replaced by the twin's endpoints.
 */
export function securityHeadersOf(
  template: CfnTemplate,
  resolver: Resolver,
  distributionPrefix: string,
  twinConnectSources: string[],
): Record<string, string> {
  const [, policy] =
    resourcesOfType(template, 'AWS::CloudFront::ResponseHeadersPolicy').find(([id]) => id.startsWith(distributionPrefix)) ?? [];
  const sec = policy && resolver.resolve(policy.Properties).ResponseHeadersPolicyConfig.SecurityHeadersConfig;
  if (!sec) return {};
  const headers: Record<string, string> = {};
  if (sec.ContentSecurityPolicy) {
    headers['content-security-policy'] = String(sec.ContentSecurityPolicy.ContentSecurityPolicy).replace(
      /connect-src [^;]*/,
      `connect-src 'self' ${twinConnectSources.join(' ')}`,
    );
  }
  if (sec.ContentTypeOptions) headers['x-content-type-options'] = 'nosniff';
  if (sec.FrameOptions) headers['x-frame-options'] = sec.FrameOptions.FrameOption;
  if (sec.ReferrerPolicy) headers['referrer-policy'] = sec.ReferrerPolicy.ReferrerPolicy;
  // HSTS is meaningless over http://127.0.0.1 and would pin the browser to https; it stays in AWS.
  return headers;
}

/**
 * Serves a built single-page app the way its CloudFront distribution does: files from the
 * build, `/index.html` for unknown paths, the runtime `/config.json`, and the policy's headers.
 */
export class StaticSite {
  private server?: http.Server;

  constructor(
    private readonly dir: string,
    private readonly runtimeConfig: () => Record<string, unknown>,
    private readonly headers: Record<string, string>,
  ) {}

  async listen(port: number): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (url.pathname === '/config.json') {
      res.writeHead(200, { 'content-type': TYPES['.json'], 'cache-control': 'no-store', ...this.headers });
      res.end(JSON.stringify(this.runtimeConfig()));
      return;
    }
    let file = path.normalize(path.join(this.dir, decodeURIComponent(url.pathname)));
    if (!file.startsWith(this.dir)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file)) file = path.join(this.dir, 'index.html');
    if (!fs.existsSync(file)) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`This site has not been built: run \`npm run build\` (missing ${path.relative(process.cwd(), this.dir)}).`);
      return;
    }
    const ext = path.extname(file);
    const immutable = /\/assets\//.test(file);
    res.writeHead(200, {
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...this.headers,
    });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  }
}
