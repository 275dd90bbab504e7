import { startTransition } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app';
import { BRAND_NAME } from './brand';
import { loadConfig, type AppConfig } from './config';
import { APP_HYDRATING_EVENT, APP_READY_EVENT } from './lib/earlyInput';

const announceReady = () => {
  document.documentElement.setAttribute('data-app-ready', '');
  window.dispatchEvent(new Event(APP_READY_EVENT));
};

/*
 * The app, loaded by main.tsx once the page has painted. Most pages arrive as HTML rendered at
 * build time (web/scripts/prerender.ts); here the browser takes them over (hydrates) once
 * /config.json is in, so every page sees the real settings from its first render and an API call
 * can never go to a placeholder address. Pages the build does not render (an empty #root: the app
 * shell served for /talent/<id> and unknown paths, and `mode: 'client'` routes) render from scratch.
 */

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const prerendered = container.firstElementChild !== null;

function StartupError({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="startup-error" role={prerendered ? 'alert' : undefined}>
      <h1>{BRAND_NAME} could not start</h1>
      <p>We could not load the site's settings. Check your connection and try again.</p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        Try again
      </button>
    </main>
  );
}

/** Where StartupError renders: #root for the app shell; above a prerendered page, which stays readable (its links work without JS). */
let errorRoot: { root: Root; host: HTMLElement } | undefined;
function showStartupError() {
  if (!errorRoot) {
    const host = prerendered ? document.body.insertBefore(document.createElement('div'), container) : container!;
    errorRoot = { root: createRoot(host), host };
  }
  errorRoot.root.render(<StartupError onRetry={start} />);
}
function clearStartupError() {
  if (!errorRoot) return;
  errorRoot.root.unmount();
  if (errorRoot.host !== container) errorRoot.host.remove();
  errorRoot = undefined;
}

function mount(config: AppConfig) {
  clearStartupError();
  const app = (
    <BrowserRouter>
      <App config={config} onReady={announceReady} />
    </BrowserRouter>
  );
  if (prerendered) {
    window.dispatchEvent(new Event(APP_HYDRATING_EVENT));
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole page: the page answers input while it wakes up.
    startTransition(() => {
      hydrateRoot(container!, app, {
        // A mismatch means the page rendered differently in the browser than at build time (it read
        // window, the query string or the clock while rendering); React recovers by re-rendering it.
        onRecoverableError: (error) => console.error('Hydration: the prerendered HTML did not match the page', error),
      });
    });
  } else {
    createRoot(container!).render(app);
  }
}

export function start() {
  loadConfig().then(mount, (err: unknown) => {
    console.error('Failed to load /config.json', err);
    showStartupError();
  });
}
