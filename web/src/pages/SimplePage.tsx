import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/usePageTitle';
import './SimplePage.css';

interface SimplePageProps {
  title: string;
  /** Overrides the document title when it should differ from the heading. */
  documentTitle?: string;
  eyebrow?: string;
  lastUpdated?: string;
  backLink?: { to: string; label: string };
  children: ReactNode;
}

/** A plain content page inside the pre-launch layout: heading, optional date, body. */
export function SimplePage({ title, documentTitle, eyebrow, lastUpdated, backLink, children }: SimplePageProps) {
  usePageTitle(documentTitle ?? title);
  return (
    <article className="container simple-page">
      {backLink && (
        <Link to={backLink.to} className="simple-page__back">
          <span aria-hidden="true">←</span> {backLink.label}
        </Link>
      )}
      {eyebrow && <p className="eyebrow">{eyebrow}</p>}
      <h1>{title}</h1>
      {lastUpdated && <p className="simple-page__updated">Last updated {lastUpdated}</p>}
      <div className="simple-page__body">{children}</div>
    </article>
  );
}
