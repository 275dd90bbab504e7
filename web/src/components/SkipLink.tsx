import type { MouseEvent } from 'react';

/** Moves focus to <main> without putting "#main" in the URL (which would trigger a hash scroll). */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById('main');
  if (!main) return;
  event.preventDefault();
  main.focus({ preventScroll: true });
  main.scrollIntoView({ block: 'start' });
}

/** "Skip to main content", the first stop for keyboard users on every layout. */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main" onClick={skipToMain}>
      Skip to main content
    </a>
  );
}
