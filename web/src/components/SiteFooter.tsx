import { Link } from 'react-router';
import { BRAND_NAME } from '../brand';
import { LogoMark } from './Logo';
import './SiteFooter.css';

interface SiteFooterProps {
  tagline: string;
  taglineTestId?: string;
  links: readonly { to: string; label: string }[];
  copyrightYear: number | string;
}

/** The footer of every layout: brand and tagline, the footer links, the copyright line. */
export function SiteFooter({ tagline, taglineTestId, links, copyrightYear }: SiteFooterProps) {
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div className="site-footer__brand">
          <Link to="/" className="brand brand--footer">
            <LogoMark size={28} />
            <span className="brand__name">{BRAND_NAME}</span>
          </Link>
          <p className="site-footer__tagline" data-testid={taglineTestId}>
            {tagline}
          </p>
        </div>
        <nav aria-label="Footer" className="site-footer__nav">
          <ul>
            {links.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="site-footer__copyright" data-testid="copyright">
          © {copyrightYear} {BRAND_NAME}
        </p>
      </div>
    </footer>
  );
}
