import { useCallback, useEffect, useId, useRef, useState, type FocusEvent } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { BRAND_NAME, MAIN_TAGLINE } from '../brand';
import { useStoredSignIn } from '../lib/stored-sign-in';
import { Icon, type IconName } from './Icon';
import { LogoMark } from './Logo';
import { ScrollManager } from './ScrollManager';
import { SiteFooter } from './SiteFooter';
import { SkipLink } from './SkipLink';
import './PreLaunchLayout.css';
import './MainLayout.css';
import './LinkCard.css';
import './MainLayout.pages.css';

/** Copyright year shown in the main footer. */
const MAIN_COPYRIGHT_YEAR = 2024;

interface NavItem {
  to: string;
  label: string;
  /** The short label used in the mobile menu. */
  short: string;
  icon: IconName;
}

const MAIN_NAV: readonly NavItem[] = [
  { to: '/ethos', label: `Why ${BRAND_NAME}`, short: 'Our Why', icon: 'heart' },
  { to: '/talent', label: 'Talent Library', short: 'Talent', icon: 'users' },
  { to: '/talent-application', label: `Become ${BRAND_NAME} Talent`, short: 'Join', icon: 'star' },
  { to: '/create', label: 'Create Ethical Content', short: 'Create', icon: 'sparkles' },
];

const FOOTER_LINKS = [
  { to: '/contact', label: 'Contact' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/report', label: 'Report an image' },
  { to: '/verify', label: 'Verify an image' },
] as const;

/**
 * Disclosure-style mobile menu: the button says whether it is open (aria-expanded) and which
 * element it controls; opening moves focus to the first link, Escape closes it and returns focus
 * to the button, and it closes on navigation, on a click outside and when focus leaves it.
 */
function MobileMenu() {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  // Navigation closes the menu: adjusted while rendering, so the new page never paints it open.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    panelRef.current?.querySelector<HTMLElement>('a')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  const onBlur = useCallback((event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget as Node | null;
    if (next && !event.currentTarget.contains(next)) setOpen(false);
  }, []);

  return (
    <div className="mobile-menu" ref={rootRef} onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        className="mobile-menu__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        data-testid="mobile-menu-button"
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          {open ? (
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          ) : (
            <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          )}
        </svg>
        <span className="sr-only">Menu</span>
      </button>
      <div ref={panelRef} id={panelId} className="mobile-menu__panel" hidden={!open} data-testid="mobile-menu">
        <nav aria-label="Main">
          <ul className="mobile-menu__list">
            {MAIN_NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className="mobile-menu__link" onClick={() => setOpen(false)}>
                  <span className="mobile-menu__icon" aria-hidden="true">
                    <Icon name={item.icon} size={20} />
                  </span>
                  {item.short}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </div>
  );
}

/** Header, main and footer of the main site (docs/product.md#layouts). */
export function MainLayout() {
  const signedIn = useStoredSignIn();
  return (
    <div className="shell main-shell">
      <ScrollManager />
      <SkipLink />

      <header className="site-header main-header">
        <div className="container main-header__inner">
          <Link to="/" className="brand" data-testid="brand-link">
            <LogoMark size={32} />
            <span className="brand__name">{BRAND_NAME}</span>
          </Link>
          <nav aria-label="Main" className="main-nav" data-testid="main-nav">
            <ul>
              {MAIN_NAV.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} className="site-nav__link main-nav__link">
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="main-header__actions">
            <Link to="/portal" className="button button--primary main-header__signin" data-testid="sign-in-link">
              {signedIn ? 'Account' : 'Sign in'}
            </Link>
            <MobileMenu />
          </div>
        </div>
      </header>

      <main id="main" tabIndex={-1} className="site-main">
        <Outlet />
      </main>

      <SiteFooter tagline={MAIN_TAGLINE} taglineTestId="footer-tagline" links={FOOTER_LINKS} copyrightYear={MAIN_COPYRIGHT_YEAR} />
    </div>
  );
}
