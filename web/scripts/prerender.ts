/**
 * Writes real HTML for every public route after `vite build` (run by the plugin in web/vite.config.ts):
 *
 *   dist/index.html, dist/<route>/index.html   the page rendered at build time, with its title, description,
 *                                              canonical URL, Open Graph and Twitter card tags
 *   dist/app-shell.html                        the empty app, for every path that has no file (/talent/<id>,
 *                                              unknown paths): CloudFront and the twin answer it on a miss
 *   dist/sitemap.xml, dist/robots.txt          from the same route list
 *   dist/prerender.json                        what was written, for the deployment and the site bench
 *
 * The route list comes from `routes` in web/src/routes.tsx (every path without a parameter), the words
 * from ROUTE_META in web/src/lib/seo.ts. A route that throws while rendering fails the build.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RouteObject } from 'react-router';
import { build } from 'vite';
import { BRAND_NAME as BRAND, pageTitle } from '../src/brand';
import type { AppConfig } from '../src/config';
import type { RenderResult } from '../src/entry-server';
import type { RouteMeta } from '../src/lib/seo';

export interface PrerenderOptions {
  webRoot: string;
  distDir: string;
  /** Where the SSR build of web/src/entry-server.tsx goes (its imports must resolve from there). */
  ssrOutDir: string;
  /** web/vite.config.ts, which builds entry-server.tsx for Node when asked for an SSR build. */
  configFile: string;
  /** Origin for canonical URLs, og:image and the sitemap, e.g. https://humanly.example (SITE_URL). */
  siteUrl: string;
  /** The settings pages render with at build time; /config.json replaces them in the browser. */
  config: AppConfig;
  log?: (line: string) => void;
}

export interface PrerenderedRoute {
  path: string;
  file: string;
  mode: 'page' | 'client';
  title: string;
  indexable: boolean;
  /** The JavaScript the page loads to start: the entry, the app and the page's own chunks. */
  js: string[];
}

export interface PrerenderManifest {
  siteUrl: string;
  routes: PrerenderedRoute[];
  /** Files whose text contains siteUrl (the deployment may point them at another origin). */
  siteUrlFiles: string[];
}

interface EntryServer {
  render(url: string, config: AppConfig): Promise<RenderResult>;
  routes: RouteObject[];
  ROUTE_META: Record<string, RouteMeta>;
  DEFAULT_DESCRIPTION: string;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  isEntry?: boolean;
}

export const SSR_ENTRY = 'src/entry-server.tsx';
export const APP_SHELL = 'app-shell.html';
export const PRERENDER_MANIFEST = 'prerender.json';
const SOCIAL_DIR = 'social';

/** Route fields and hooks that only a data router supports; the site uses the declarative router (web/src/app.tsx). */
const DATA_ROUTER_FIELDS = ['loader', 'action', 'lazy', 'errorElement', 'ErrorBoundary', 'HydrateFallback', 'hydrateFallbackElement', 'shouldRevalidate', 'handle'];
const DATA_ROUTER_HOOKS =
  /\b(useLoaderData|useActionData|useFetchers?|useNavigation|useBlocker|useRouteError|useMatches|useRevalidator|useSubmit|useAsyncValue|useAsyncError|unstable_usePrompt|ScrollRestoration)\b/;

export async function prerenderSite(options: PrerenderOptions): Promise<PrerenderManifest> {
  const log = options.log ?? console.log;
  await build({ configFile: options.configFile, logLevel: 'warn', build: { ssr: SSR_ENTRY, outDir: options.ssrOutDir } });
  try {
    return await renderSite(options, log);
  } finally {
    fs.rmSync(options.ssrOutDir, { recursive: true, force: true });
  }
}

async function renderSite(options: PrerenderOptions, log: (line: string) => void): Promise<PrerenderManifest> {
  const { distDir, siteUrl } = options;
  const entryUrl = pathToFileURL(path.join(options.ssrOutDir, 'entry-server.mjs')).href;
  // One fresh copy of the app per route (the query makes Node load the module again), so each render
  // starts from cold lazy pages and records every chunk it needs.
  const load = (key: string) => import(`${entryUrl}?route=${encodeURIComponent(key)}`) as Promise<EntryServer>;
  const entry = await load('list');

  checkDeclarativeRouter(entry.routes, path.join(options.webRoot, 'src'));

  const manifestPath = path.join(distDir, '.vite', 'manifest.json');
  const clientManifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const { template, appFiles } = pageTemplate(distDir, clientManifest);
  const readCss = (file: string) => fs.readFileSync(path.join(distDir, file), 'utf8');

  const paths = staticPaths(entry.routes);
  const unlisted = paths.filter((p) => !entry.ROUTE_META[p]);
  if (unlisted.length) log(`prerender: no ROUTE_META entry in web/src/lib/seo.ts for ${unlisted.join(', ')}; using the site's description and card`);
  const missing = Object.keys(entry.ROUTE_META).filter((p) => !paths.includes(p));
  if (missing.length) log(`prerender: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} in ROUTE_META but not in the route table yet; skipped`);

  const routes: PrerenderedRoute[] = [];
  const failures: string[] = [];
  for (const routePath of paths) {
    const meta: RouteMeta = entry.ROUTE_META[routePath] ?? {
      description: entry.DEFAULT_DESCRIPTION,
      card: entry.ROUTE_META['/'].card,
    };
    const mode = meta.mode ?? 'page';
    let title = meta.title ? pageTitle(meta.title) : undefined;
    let description = meta.description;
    let body = '';
    let pageChunks = { js: [] as string[], css: [] as string[] };
    if (mode === 'page') {
      let result: RenderResult;
      try {
        result = await (await load(routePath)).render(routePath, options.config);
      } catch (err) {
        failures.push(`${routePath}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        continue;
      }
      body = result.html;
      title = result.head.title ?? title;
      description = result.head.description ?? description;
      const chunks = chunkFiles(clientManifest, result.dynamicImports);
      pageChunks = { js: chunks.js.filter((f) => !appFiles.js.includes(f)), css: chunks.css.filter((f) => !appFiles.css.includes(f)) };
    }
    if (!title) {
      failures.push(`${routePath}: no title (the page calls no usePageTitle, and ROUTE_META gives none)`);
      continue;
    }
    const indexable = meta.indexable ?? true;
    const head = [
      ...headTags({ siteUrl, path: routePath, title, description, card: meta.card, indexable }),
      ...inlineStyles([...appFiles.css, ...pageChunks.css], readCss),
    ];
    const file = routePath === '/' ? 'index.html' : `${routePath.slice(1)}/index.html`;
    writeFile(distDir, file, fillTemplate(template, { title, description, head, body, preload: pageChunks.js }));
    routes.push({ path: routePath, file, mode, title, indexable, js: [...new Set([...appFiles.js, ...pageChunks.js])] });
  }
  if (failures.length) {
    throw new Error(`Prerendering failed for ${failures.length} route(s):\n\n${failures.join('\n\n')}`);
  }

  // The app shell: served for paths with no file of their own; the browser renders the route.
  writeFile(
    distDir,
    APP_SHELL,
    fillTemplate(template, {
      title: pageTitle(),
      description: entry.DEFAULT_DESCRIPTION,
      head: [
        ...headTags({ siteUrl, title: undefined, description: entry.DEFAULT_DESCRIPTION, card: entry.ROUTE_META['/'].card, indexable: true }),
        ...inlineStyles(appFiles.css, readCss),
      ],
      body: '',
      preload: [],
    }),
  );
  if (!routes.some((r) => r.path === '/')) fs.copyFileSync(path.join(distDir, APP_SHELL), path.join(distDir, 'index.html'));

  writeFile(distDir, 'sitemap.xml', sitemap(siteUrl, routes));
  const robotsSource = path.join(options.webRoot, 'public', 'robots.txt');
  writeFile(distDir, 'robots.txt', fs.readFileSync(robotsSource, 'utf8').replaceAll('%SITE_URL%', siteUrl));

  for (const card of new Set(Object.values(entry.ROUTE_META).map((m) => m.card.file))) {
    if (!fs.existsSync(path.join(distDir, SOCIAL_DIR, `${card}.png`))) {
      throw new Error(`web/public/${SOCIAL_DIR}/${card}.png is missing: run \`npm run social-cards\` and commit the images`);
    }
  }

  fs.rmSync(path.join(distDir, '.vite'), { recursive: true, force: true });
  const manifest: PrerenderManifest = {
    siteUrl,
    routes,
    siteUrlFiles: [...routes.map((r) => r.file), APP_SHELL, 'sitemap.xml', 'robots.txt'],
  };
  writeFile(distDir, PRERENDER_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  log(
    `prerender: ${routes.filter((r) => r.mode === 'page').length} pages rendered, ${routes.filter((r) => r.mode === 'client').length} rendered in the browser, site URL ${siteUrl}`,
  );
  return manifest;
}

/** Every path of the route table without a parameter or splat, in table order. */
export function staticPaths(routes: RouteObject[], parent = ''): string[] {
  const out: string[] = [];
  for (const route of routes) {
    if (route.path && /[:*?]/.test(route.path)) continue;
    const here = route.path ? joinPath(parent, route.path) : parent;
    if (route.index || (route.path && !route.children?.length)) out.push(here || '/');
    if (route.children) out.push(...staticPaths(route.children, here));
  }
  return [...new Set(out.map((p) => (p === '' ? '/' : p)))];
}

function joinPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child.replace(/\/+$/, '') || '/';
  return `${parent.replace(/\/+$/, '')}/${child.replace(/\/+$/, '')}`;
}

function checkDeclarativeRouter(routes: RouteObject[], srcDir: string): void {
  const problems: string[] = [];
  const walk = (list: RouteObject[], trail: string) => {
    for (const r of list) {
      const where = `${trail}/${r.path ?? (r.index ? '(index)' : '(layout)')}`.replace(/\/+/g, '/');
      for (const field of DATA_ROUTER_FIELDS) if (field in r) problems.push(`route ${where} sets "${field}"`);
      if (r.children) walk(r.children, r.path ? `${trail}/${r.path}` : trail);
    }
  };
  walk(routes, '');
  for (const file of listFiles(srcDir)) {
    if (!/\.tsx?$/.test(file) || file.endsWith('.d.ts')) continue;
    const hit = fs.readFileSync(file, 'utf8').match(DATA_ROUTER_HOOKS);
    if (hit) problems.push(`${path.relative(path.dirname(srcDir), file)} uses ${hit[1]}`);
  }
  if (problems.length) {
    throw new Error(
      `The site uses React Router's declarative router (web/src/app.tsx explains why), which has no loaders, actions, route lazy or data hooks:\n  ${problems.join('\n  ')}\nUse React.lazy in "element" for code splitting and effects or event handlers for data.`,
    );
  }
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? listFiles(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

/**
 * The JS chunks (with their static imports) and CSS files the given manifest entries need, CSS in
 * cascade order (a chunk's imports before the chunk, as Vite loads them).
 */
function chunkFiles(manifest: Record<string, ManifestChunk>, keys: string[]): { js: string[]; css: string[] } {
  const js = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || js.has(chunk.file)) return;
    js.add(chunk.file);
    for (const i of chunk.imports ?? []) visit(i);
    for (const c of chunk.css ?? []) css.add(c);
  };
  keys.forEach(visit);
  return { js: [...js], css: [...css] };
}

/**
 * Vite's index.html, and what every page needs: the entry (main.tsx, tiny, in the HTML) and the app
 * it loads after the first paint (start.tsx and its imports). The entry's stylesheet link is taken
 * out: pages carry their CSS inline (inlineStyles).
 */
function pageTemplate(distDir: string, manifest: Record<string, ManifestChunk>): { template: string; appFiles: { js: string[]; css: string[] } } {
  let template = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  if (!template.includes('<!--app-html-->') || !template.includes('<!--app-head-->') || !template.includes('<div id="root">')) {
    throw new Error('web/index.html must keep <!--app-head-->, and <div id="root"><!--app-html--></div>');
  }
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('The client build has no entry chunk');
  const entry = manifest[entryKey];
  const app = chunkFiles(manifest, [entryKey, ...(entry.dynamicImports ?? [])]);
  for (const css of app.css) {
    template = template.replace(new RegExp(`\\s*<link rel="stylesheet"[^>]*href="/${css.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`), '');
  }
  return { template, appFiles: app };
}

/**
 * The page's stylesheets as <style> elements, so the first paint waits for no other request. Each
 * keeps a disabled <link> to its file, which the browser does not fetch: Vite's loader sees it and
 * does not fetch the same CSS again when the page's chunk loads.
 */
function inlineStyles(files: string[], read: (file: string) => string): string[] {
  return [...new Set(files)].flatMap((f) => [`<style>${read(f).trim()}</style>`, `<link rel="stylesheet" href="/${f}" disabled>`]);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function headTags(p: { siteUrl: string; path?: string; title?: string; description: string; card: RouteMeta['card']; indexable: boolean }): string[] {
  const attr = escapeHtml;
  const image = `${p.siteUrl}/${SOCIAL_DIR}/${p.card.file}.png`;
  const url = p.path ? `${p.siteUrl}${p.path === '/' ? '/' : p.path}` : undefined;
  const tags = [
    url && `<link rel="canonical" href="${attr(url)}">`,
    !p.indexable && '<meta name="robots" content="noindex">',
    '<meta property="og:type" content="website">',
    `<meta property="og:site_name" content="${BRAND}">`,
    p.title && `<meta property="og:title" content="${attr(p.title)}">`,
    `<meta property="og:description" content="${attr(p.description)}">`,
    url && `<meta property="og:url" content="${attr(url)}">`,
    `<meta property="og:image" content="${attr(image)}">`,
    '<meta property="og:image:type" content="image/png">',
    '<meta property="og:image:width" content="1200">',
    '<meta property="og:image:height" content="630">',
    `<meta property="og:image:alt" content="${attr(`${BRAND}: ${p.card.headline}`)}">`,
    '<meta name="twitter:card" content="summary_large_image">',
    p.title && `<meta name="twitter:title" content="${attr(p.title)}">`,
    `<meta name="twitter:description" content="${attr(p.description)}">`,
    `<meta name="twitter:image" content="${attr(image)}">`,
  ];
  return tags.filter((t): t is string => Boolean(t));
}

function fillTemplate(template: string, p: { title: string; description: string; head: string[]; body: string; preload: string[] }): string {
  const root = p.preload.length ? `<div id="root" data-preload="${p.preload.map((f) => `/${f}`).join(' ')}">` : '<div id="root">';
  return template
    .replace('<div id="root">', () => root)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(p.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*"\s*\/?>/, () => `<meta name="description" content="${escapeHtml(p.description)}" />`)
    .replace('<!--app-head-->', () => p.head.join('\n    '))
    .replace('<!--app-html-->', () => p.body);
}

function sitemap(siteUrl: string, routes: PrerenderedRoute[]): string {
  const urls = routes
    .filter((r) => r.indexable)
    .map((r) => `  <url><loc>${escapeHtml(`${siteUrl}${r.path === '/' ? '/' : r.path}`)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

function writeFile(distDir: string, file: string, content: string): void {
  const target = path.join(distDir, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, content);
}

/** `tsx web/scripts/prerender.ts '<PrerenderOptions as JSON>'`: run by the prerender plugin of web/vite.config.ts. */
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  prerenderSite(JSON.parse(process.argv[2] ?? '{}') as PrerenderOptions).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
