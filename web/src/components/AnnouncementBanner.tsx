import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Icon, type IconName } from './Icon';
import './AnnouncementBanner.css';

interface AnnouncementBannerProps {
  icon: IconName;
  children: ReactNode;
  /** The link's text; it jumps to `#target` on the page. */
  linkText: string;
  target: string;
  linkTestId?: string;
  className?: string;
}

/** The strip above a page's hero that announces an offer, with a link down to its form. */
export function AnnouncementBanner({ icon, children, linkText, target, linkTestId, className }: AnnouncementBannerProps) {
  return (
    <div className={`announcement${className ? ` ${className}` : ''}`} role="note" aria-label="Announcement">
      <div className="container announcement__inner">
        <Icon name={icon} size={18} />
        <span>{children}</span>
        <Link to={{ hash: target }} className="announcement__link" data-testid={linkTestId}>
          {linkText}
        </Link>
      </div>
    </div>
  );
}
