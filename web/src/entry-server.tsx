import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app';
import type { AppConfig } from './config';
import { HeadContext, type HeadCollector } from './lib/usePageTitle';

export { ROUTE_META, DEFAULT_DESCRIPTION } from './lib/seo';
export { routes } from './routes';

/**
 * The build's renderer (web/scripts/prerender.ts loads this module's SSR build, one fresh copy per
 * route). `prerender` waits for every lazy page and Suspense boundary, so the HTML is the whole page.
 */
export interface RenderResult {
  html: string;
  head: HeadCollector;
  /** Source modules loaded with import() while rendering (web/src-relative), to preload their chunks. */
  dynamicImports: string[];
}

declare global {
  // Filled by the import tracker the SSR build adds around every import() in web/src (vite.config.ts).
  var __PRERENDER_IMPORTS__: Set<string> | undefined;
}

export async function render(url: string, config: AppConfig): Promise<RenderResult> {
  const head: HeadCollector = {};
  const errors: unknown[] = [];
  globalThis.__PRERENDER_IMPORTS__ = new Set();
  const { prelude } = await prerenderToNodeStream(
    <HeadContext value={(meta) => Object.assign(head, meta)}>
      <StaticRouter location={url}>
        <App config={config} />
      </StaticRouter>
    </HeadContext>,
    {
      // React would otherwise leave the failed part for the browser to render; a build must not ship that.
      onError: (error) => {
        errors.push(error);
      },
    },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  const html = Buffer.concat(chunks).toString('utf8');
  if (errors.length > 0) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  const dynamicImports = [...globalThis.__PRERENDER_IMPORTS__];
  globalThis.__PRERENDER_IMPORTS__ = undefined;
  return { html, head, dynamicImports };
}
