import type { MouseEvent } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { BRAND_NAME, PRELAUNCH_COPYRIGHT_YEAR, PRELAUNCH_TAGLINE } from '../brand';
import { LogoMark } from './Logo';
import { ScrollManager } from './ScrollManager';
import './PreLaunchLayout.css';

/** Moves focus to <main> without putting "#main" in the URL (which would trigger a hash scroll). */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById('main');
  if (!main) return;
  event.preventDefault();
  main.focus({ preventScroll: true });
  main.scrollIntoView({ block: 'start' });
}

/** Header, main and footer shared by every pre-launch page (spec section 2, navigation and layouts). */
export function PreLaunchLayout() {
  return (
    <div className="shell">
      <ScrollManager />
      <a className="skip-link" href="#main" onClick={skipToMain}>
        Skip to main content
      </a>

      <header className="site-header">
        <div className="container site-header__inner">
          <Link to="/" className="brand" data-testid="brand-link">
            <LogoMark size={32} />
            <span className="brand__name">{BRAND_NAME}</span>
          </Link>
          <nav aria-label="Main" className="site-nav">
            <ul>
              <li>
                <NavLink to="/first-200" className="site-nav__link">
                  For Creators
                </NavLink>
              </li>
              <li>
                <NavLink to="/founding-talent-application" className="site-nav__link">
                  For Talent
                </NavLink>
              </li>
            </ul>
          </nav>
        </div>
      </header>

      <main id="main" tabIndex={-1} className="site-main">
        <Outlet />
      </main>

      <footer className="site-footer">
        <div className="container site-footer__inner">
          <div className="site-footer__brand">
            <Link to="/" className="brand brand--footer">
              <LogoMark size={28} />
              <span className="brand__name">{BRAND_NAME}</span>
            </Link>
            <p className="site-footer__tagline">{PRELAUNCH_TAGLINE}</p>
          </div>
          <nav aria-label="Footer" className="site-footer__nav">
            <ul>
              <li>
                <Link to="/pre-launch-contact">Contact</Link>
              </li>
              <li>
                <Link to="/pre-launch-privacy">Privacy Policy</Link>
              </li>
              <li>
                <Link to="/pre-launch-terms">Terms of Service</Link>
              </li>
            </ul>
          </nav>
          <p className="site-footer__copyright" data-testid="copyright">
            © {PRELAUNCH_COPYRIGHT_YEAR} {BRAND_NAME}
          </p>
        </div>
      </footer>
    </div>
  );
}
