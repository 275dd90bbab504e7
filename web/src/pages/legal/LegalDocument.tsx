import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';
import { AREA_LINKS, LEGAL_LAST_UPDATED, type SiteArea } from '../../lib/siteAreas';
import { BackLink } from '../../components/BackLink';
import type { LegalTextContext } from './privacyPolicy';
import './LegalDocument.css';

export interface LegalSection {
  /** Anchor id, also the URL hash: /privacy#your-rights. */
  id: string;
  title: string;
  content: ReactNode;
}

interface LegalDocumentProps {
  area: SiteArea;
  title: string;
  intro: ReactNode;
  summary: readonly ReactNode[];
  sections: readonly LegalSection[];
  /** The other legal page of the same layout, linked at the end. */
  related: { to: string; label: string };
  testId: string;
}

/** What the policy texts need from the layout they show in: the contact address and the layout's links. */
export function useLegalContext(area: SiteArea): LegalTextContext {
  const { contactEmail } = useConfig();
  return { contactEmail, links: AREA_LINKS[area] };
}

/**
 * A long legal page: heading and date, a plain-language summary, a table of contents whose
 * anchor links scroll smoothly (ScrollManager) and numbered sections.
 */
export function LegalDocument({ area, title, intro, summary, sections, related, testId }: LegalDocumentProps) {
  usePageTitle(title);
  const back = AREA_LINKS[area].back;
  const active = useActiveSection(sections);

  return (
    <div className="legal" data-testid={testId}>
      <div className="container legal__inner">
        <header className="legal__header" id="top">
          {back && <BackLink {...back} />}
          <p className="eyebrow">Legal</p>
          <h1>{title}</h1>
          <p className="legal__updated" data-testid="last-updated">
            Last updated {LEGAL_LAST_UPDATED[area]}
          </p>
          <div className="legal__intro">{intro}</div>
        </header>

        <div className="legal__layout">
          <nav className="legal-toc" aria-labelledby="legal-toc-title" data-testid="legal-toc">
            <h2 id="legal-toc-title" className="legal-toc__title">
              On this page
            </h2>
            <ol className="legal-toc__list">
              {sections.map((section) => (
                <li key={section.id}>
                  <Link
                    to={{ hash: section.id }}
                    className="legal-toc__link"
                    aria-current={active === section.id ? 'location' : undefined}
                  >
                    {section.title}
                  </Link>
                </li>
              ))}
            </ol>
          </nav>

          <div className="legal__body">
            <section className="legal-summary" aria-labelledby="legal-summary-title" data-testid="legal-summary">
              <h2 id="legal-summary-title" className="legal-summary__title">
                The short version
              </h2>
              <ul className="legal-summary__list">
                {summary.map((point, i) => (
                  <li key={i}>
                    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                      <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
                    </svg>
                    <span>{point}</span>
                  </li>
                ))}
              </ul>
              <p className="legal-summary__note">This summary is for convenience; the full text below is what applies.</p>
            </section>

            {sections.map((section, i) => (
              <section key={section.id} id={section.id} className="legal-section" aria-labelledby={`${section.id}-title`}>
                <h2 id={`${section.id}-title`}>
                  <span className="legal-section__number" aria-hidden="true">
                    {i + 1}.
                  </span>{' '}
                  {section.title}
                </h2>
                {section.content}
              </section>
            ))}

            <footer className="legal__footer">
              <p>
                See also our <Link to={related.to}>{related.label}</Link>.
              </p>
              <Link to={{ hash: 'top' }} className="legal__top">
                Back to top
                <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
                  <path d="M3 10l5-5 5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </Link>
            </footer>
          </div>
        </div>
      </div>
    </div>
  );
}

/** The section being read (the last one whose top has passed below the sticky header), for the table of contents. */
function useActiveSection(sections: readonly LegalSection[]): string | null {
  const [active, setActive] = useState<string | null>(null);
  // Pages rebuild their section list on every render; only a change of ids matters here.
  const ids = sections.map((s) => s.id).join(' ');

  useEffect(() => {
    const order = ids.split(' ');
    // Just below where a hash jump lands (scroll-padding-top in base.css is the header plus 1rem).
    const line = 120;
    let frame = 0;
    const update = () => {
      frame = 0;
      let current: string | null = null;
      for (const id of order) {
        const el = document.getElementById(id);
        if (!el || el.getBoundingClientRect().top > line) break;
        current = id;
      }
      // At the very bottom the last short sections can never reach the line: trust the link that was followed.
      const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      const hash = decodeURIComponent(window.location.hash.slice(1));
      if (atBottom && order.includes(hash)) current = hash;
      setActive(current);
    };
    const schedule = () => {
      if (!frame) frame = window.requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [ids]);

  return active;
}
