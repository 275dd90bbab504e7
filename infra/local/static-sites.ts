import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { APP_SHELL_PAGE, DIRECTORY_INDEX_FUNCTION } from '../lib/platform/template-names';
import { resourcesOfType, type CfnTemplate, type Resolver } from './template';
import { listenOnLoopback } from './emulators/ports';

/** The distribution's viewer-request function, the very code CloudFront runs. */
const directoryIndex = new Function(`${DIRECTORY_INDEX_FUNCTION}\nreturn handler;`)() as (event: {
  request: { uri: string };
}) => { uri: string };

/** What CloudFront compresses (`compress: true`): these types, from 1,000 bytes up. */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;
const MIN_COMPRESS_BYTES = 1000;

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
 * template. The browser's connect-src hosts in AWS are replaced by the twin's endpoints, and
 * img-src gains the twin's http image hosts where AWS allows any https one.
 */
export function securityHeadersOf(
  template: CfnTemplate,
  resolver: Resolver,
  distributionPrefix: string,
  twinConnectSources: string[],
  /** Where the twin serves images that AWS serves over https (presigned S3 URLs): added to img-src. */
  twinImageSources: string[] = [],
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
    ).replace(/img-src [^;]*/, (directive) => [directive, ...twinImageSources].join(' '));
  }
  if (sec.ContentTypeOptions) headers['x-content-type-options'] = 'nosniff';
  if (sec.FrameOptions) headers['x-frame-options'] = sec.FrameOptions.FrameOption;
  if (sec.ReferrerPolicy) headers['referrer-policy'] = sec.ReferrerPolicy.ReferrerPolicy;
  // HSTS is meaningless over http://127.0.0.1 and would pin the browser to https; it stays in AWS.
  return headers;
}

/**
 * Serves a built site the way its CloudFront distribution does: the viewer-request function
 * (`/path` from `/path/index.html`), files from the build, the app shell for paths with no file,
 * the runtime `/config.json`, gzip or brotli as CloudFront's automatic compression, the cache
 * headers the deployment sets, and the policy's headers. Like the deployment, it points the
 * prerendered pages' canonical and Open Graph URLs at the address it serves on.
 */
export class StaticSite {
  private server?: http.Server;
  private origin = '';
  private readonly compressed = new Map<string, { mtimeMs: number; body: Buffer }>();

  constructor(
    private readonly dir: string,
    private readonly runtimeConfig: () => Record<string, unknown>,
    private readonly headers: Record<string, string>,
  ) {}

  async listen(port: number): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await listenOnLoopback(this.server, port);
    this.origin = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.origin;
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
    const key = directoryIndex({ request: { uri: url.pathname } }).uri;
    let decoded: string;
    try {
      decoded = decodeURIComponent(key);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = path.normalize(path.join(this.dir, decoded));
    if (!file.startsWith(this.dir + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    // No such file: S3 answers 403 and the distribution's error response serves the app shell,
    // which deploy() uploads as a copy of index.html when the build has none.
    if (!isFile(file)) file = path.join(this.dir, APP_SHELL_PAGE);
    if (!isFile(file)) file = path.join(this.dir, 'index.html');
    if (!isFile(file)) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`This site has not been built: run \`npm run build\` (missing ${path.relative(process.cwd(), this.dir)}).`);
      return;
    }
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const immutable = file.startsWith(path.join(this.dir, 'assets') + path.sep);
    let body = this.read(file);
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
      ...this.headers,
    };
    const accepts = String(req.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : undefined;
    if (encoding && COMPRESSIBLE.test(type) && body.length >= MIN_COMPRESS_BYTES) {
      body = this.compress(file, body, encoding);
      headers['content-encoding'] = encoding;
    }
    headers['content-length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** The file's bytes, with the build's site URL replaced by this server's, as deploy() does. */
  private read(file: string): Buffer {
    const body = fs.readFileSync(file);
    const manifest = this.prerenderManifest();
    if (!manifest || manifest.siteUrl === this.origin || !this.origin) return body;
    const relative = path.relative(this.dir, file).split(path.sep).join('/');
    if (!manifest.siteUrlFiles.includes(relative)) return body;
    return Buffer.from(body.toString('utf8').split(manifest.siteUrl).join(this.origin));
  }

  private prerenderManifest(): { siteUrl: string; siteUrlFiles: string[] } | undefined {
    const file = path.join(this.dir, 'prerender.json');
    if (!isFile(file)) return undefined;
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return undefined; // being rewritten by a build
    }
  }

  private compress(file: string, body: Buffer, encoding: 'br' | 'gzip'): Buffer {
    const cacheKey = `${encoding}:${file}`;
    const { mtimeMs } = fs.statSync(file);
    const hit = this.compressed.get(cacheKey);
    if (hit && hit.mtimeMs === mtimeMs) return hit.body;
    const out =
      encoding === 'br'
        ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
        : zlib.gzipSync(body, { level: 6 });
    this.compressed.set(cacheKey, { mtimeMs, body: out });
    return out;
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
