import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StaticSite } from '../../../infra/local/static-sites';

/** A built site as web/scripts/prerender.ts writes it: pages as <path>/index.html, an app shell, hashed assets. */
function builtSite(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-site-'));
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

const BUILD_ORIGIN = 'http://127.0.0.1:4000';
const bigScript = `export const x = ${JSON.stringify('a'.repeat(4000))};\n`;

describe("the twin's static site serves a build the way CloudFront does", () => {
  let dir: string;
  let site: StaticSite;
  let url: string;
  beforeAll(async () => {
    dir = builtSite({
      'index.html': '<p>landing</p>',
      'first-200/index.html': `<link rel="canonical" href="${BUILD_ORIGIN}/first-200"><p>waitlist</p>`,
      'app-shell.html': '<div id="root"></div>',
      'assets/app-1234.js': bigScript,
      'robots.txt': `Sitemap: ${BUILD_ORIGIN}/sitemap.xml`,
      'prerender.json': JSON.stringify({ siteUrl: BUILD_ORIGIN, siteUrlFiles: ['first-200/index.html', 'robots.txt'] }),
    });
    site = new StaticSite(dir, () => ({ apiUrl: 'http://api.test', stage: 'test' }), { 'x-frame-options': 'DENY' });
    url = await site.listen(0);
  });
  afterAll(async () => {
    await site.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a path is answered from <path>/index.html (the viewer-request function), with or without a trailing slash', async () => {
    for (const p of ['/first-200', '/first-200/']) {
      const res = await fetch(url + p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<p>waitlist</p>');
    }
    expect(await (await fetch(`${url}/`)).text()).toBe('<p>landing</p>');
  });

  test('a path without a file gets the app shell, with status 200, like the error response', async () => {
    for (const p of ['/talent/jane-doe', '/no-such-page', '/missing.png']) {
      const res = await fetch(url + p);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('<div id="root"></div>');
    }
  });

  test('canonical and sitemap URLs name the address the site is served on, as deploy() rewrites them', async () => {
    expect(await (await fetch(`${url}/first-200`)).text()).toContain(`href="${url}/first-200"`);
    expect(await (await fetch(`${url}/robots.txt`)).text()).toBe(`Sitemap: ${url}/sitemap.xml`);
  });

  test('compresses like CloudFront and caches hashed assets for a year, everything else revalidated', async () => {
    const res = await fetch(`${url}/assets/app-1234.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(bigScript); // fetch decodes it
    const raw = await fetch(`${url}/assets/app-1234.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect(Number(raw.headers.get('content-length'))).toBe(Buffer.byteLength(bigScript));
    const page = await fetch(`${url}/first-200`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  test('serves the runtime settings as /config.json and never leaves the build directory', async () => {
    expect(await (await fetch(`${url}/config.json`)).json()).toEqual({ apiUrl: 'http://api.test', stage: 'test' });
    expect((await fetch(`${url}/%2e%2e/%2e%2e/etc/passwd`)).status).not.toBe(500);
    expect(await (await fetch(`${url}/%2e%2e/%2e%2e/etc/passwd`)).text()).not.toContain('root:');
  });
});

test('a build without an app shell (the console) falls back to index.html, as deploy() uploads it', async () => {
  const dir = builtSite({ 'index.html': '<div id="root"></div><!--console-->' });
  const site = new StaticSite(dir, () => ({}), {});
  const url = await site.listen(0);
  try {
    expect(await (await fetch(`${url}/applications/42`)).text()).toContain('<!--console-->');
  } finally {
    await site.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
