import { Link } from 'react-router';
import './BackLink.css';

/** "← Back to …" above a page heading (pre-launch and founding legal and contact pages). */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="page-back-link" data-testid="back-link">
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        <path d="M10 3L5 8l5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {label}
    </Link>
  );
}
