import { Link, NavLink, Outlet } from 'react-router';
import { BRAND_NAME, PRELAUNCH_COPYRIGHT_YEAR, PRELAUNCH_TAGLINE } from '../brand';
import { LogoMark } from './Logo';
import { SkipLink } from './SkipLink';
import { ScrollManager } from './ScrollManager';
import { SiteFooter } from './SiteFooter';
import './LinkCard.css';
import './PreLaunchLayout.css';

/**
 * Header, main and footer of the pre-launch pages and the founding-talent pages
 * (docs/product.md#layouts). They differ only in where the footer's contact and legal links go:
 * `/pre-launch-*` or `/founding-talent-*`.
 */
export function PreLaunchLayout({ area = 'pre-launch' }: { area?: 'pre-launch' | 'founding-talent' }) {
  return (
    <div className={area === 'founding-talent' ? 'shell founding-shell' : 'shell'}>
      <ScrollManager />
      <SkipLink />

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

      <SiteFooter
        tagline={PRELAUNCH_TAGLINE}
        links={[
          { to: `/${area}-contact`, label: 'Contact' },
          { to: `/${area}-privacy`, label: 'Privacy Policy' },
          { to: `/${area}-terms`, label: 'Terms of Service' },
        ]}
        copyrightYear={PRELAUNCH_COPYRIGHT_YEAR}
      />
    </div>
  );
}
