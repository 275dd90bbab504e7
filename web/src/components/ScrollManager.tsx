import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { prefersReducedMotion } from '../lib/usePrefersReducedMotion';

/** Delay before scrolling to a hash target, so the new page has rendered (docs/product.md#scrolling). */
const HASH_SCROLL_DELAY_MS = 100;

/**
 * Whether this visit has shown its first page. A layout change (e.g. the founding application
 * to the thank-you page) mounts a new ScrollManager: that is a navigation, not the page load.
 */
let shownFirstPage = false;

/**
 * On every navigation: scroll to the top, or smoothly to the element named by the URL hash
 * after a short delay. On client-side page changes, focus moves to <main> so screen-reader
 * and keyboard users start at the new content instead of the old link.
 */
export function ScrollManager() {
  const location = useLocation();
  const previousPath = useRef<string | null>(null);

  useEffect(() => {
    const firstRender = previousPath.current === null && !shownFirstPage;
    shownFirstPage = true;
    const pathChanged = !firstRender && previousPath.current !== location.pathname;
    previousPath.current = location.pathname;

    if (location.hash.length > 1) {
      const id = decodeURIComponent(location.hash.slice(1));
      const timer = window.setTimeout(() => {
        const target = document.getElementById(id);
        if (!target) return;
        target.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
        if (!target.hasAttribute('tabindex') && !target.matches('a[href], button, input, select, textarea')) {
          target.setAttribute('tabindex', '-1');
        }
        target.focus({ preventScroll: true });
      }, HASH_SCROLL_DELAY_MS);
      return () => window.clearTimeout(timer);
    }

    // A prerendered page arrives at the top; keep where the visitor has scrolled since.
    if (firstRender) return undefined;
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    if (pathChanged) document.getElementById('main')?.focus({ preventScroll: true });
    return undefined;
    // location.key changes on every navigation, so clicking the same hash link twice scrolls again.
  }, [location.key, location.pathname, location.hash]);

  return null;
}
