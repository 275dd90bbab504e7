import { StrictMode, Suspense, useEffect } from 'react';
import { useRoutes } from 'react-router';
import { ToastProvider } from './components/Toast';
import { ConfigContext, type AppConfig } from './config';
import { routes } from './routes';

function AppRoutes() {
  return useRoutes(routes);
}

/** Calls `onReady` once the page it sits beside has committed (hydrated), lazy page included. */
function Ready({ onReady }: { onReady?: () => void }) {
  useEffect(() => {
    onReady?.();
  }, [onReady]);
  return null;
}

/**
 * The whole site below its router: the browser wraps it in <BrowserRouter>, the prerenderer in
 * <StaticRouter>, so both render the same tree and the browser can hydrate the build's HTML.
 *
 * The router is the declarative one (`useRoutes`), not a data router (`createBrowserRouter`): the data
 * router adds about 17 KB of gzipped JavaScript to every page, which the 100 KB budget for marketing
 * pages cannot carry, and the site uses none of its features (loaders, actions, fetchers, blockers).
 * So route objects may use `path`, `index`, `element` and `children`; split heavy pages with
 * `React.lazy` in `element`, not with the route `lazy` field. The build fails if a route or page
 * uses a data-router feature (web/scripts/prerender.ts).
 *
 * The Suspense boundary lets a lazy page load in the browser while its prerendered HTML stays on
 * screen; on client-side navigation, the router's transition keeps the old page until the new one is ready.
 * `onReady` runs once the first page has committed (lib/earlyInput.ts hands it what the visitor did before).
 */
export function App({ config, onReady }: { config: AppConfig; onReady?: () => void }) {
  return (
    <StrictMode>
      <ConfigContext value={config}>
        <ToastProvider>
          <Suspense fallback={null}>
            <AppRoutes />
            <Ready onReady={onReady} />
          </Suspense>
        </ToastProvider>
      </ConfigContext>
    </StrictMode>
  );
}
