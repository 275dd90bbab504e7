// Global styles first, so component stylesheets (imported by the app's modules) come later in the cascade.
import './styles/tokens.css';
import './styles/base.css';
import './styles/startup.css';
import { holdEarlyInput } from './lib/earlyInput';
import { loadConfig } from './lib/runtimeConfig';

/*
 * The page's HTML is already complete (prerendered at build time, web/scripts/prerender.ts), so this
 * entry is tiny: it waits until the browser has painted that HTML, then loads the app (start.tsx)
 * and the settings (/config.json) side by side; the app takes the page over when both are in.
 * Loading them after the first paint keeps ~100 KB of JavaScript from competing with the page's
 * HTML for the network on a slow connection; the cost is that the page wakes up (hydrates) a little
 * later. The build puts the page's own chunks in #root's data-preload, fetched alongside the app.
 */

/**
 * Resolves once the browser reports the first contentful paint of the prerendered HTML. An empty
 * page (the app shell) has nothing to paint before the app renders, and a background tab does not
 * paint at all, so those start at once; the timeout covers browsers without paint timing.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
    const empty = !document.getElementById('root')?.firstElementChild;
    if (empty || painted() || document.visibilityState !== 'visible' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      resolve();
      return;
    }
    const observer = new PerformanceObserver(() => {
      if (painted()) done();
    });
    const timer = setTimeout(done, 3000);
    function done() {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    }
    observer.observe({ type: 'paint', buffered: true });
  });
}

holdEarlyInput();

void afterFirstPaint().then(() => {
  void loadConfig().catch(() => undefined); // start.tsx reports a failure (and retries)
  const preload = document.getElementById('root')?.dataset.preload;
  for (const href of preload?.split(' ').filter(Boolean) ?? []) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  return import('./start').then(({ start }) => start());
});
