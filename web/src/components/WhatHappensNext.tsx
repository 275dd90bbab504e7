import type { ReactNode } from 'react';
import { IconList, type IconListItem } from './IconList';
import './WhatHappensNext.css';

interface WhatHappensNextProps {
  title: string;
  titleId: string;
  items: readonly IconListItem[];
  /** A closing line under a rule (e.g. a link to the photo guide). */
  footer?: ReactNode;
  className?: string;
}

/** The card that tells people what follows their signup or application. */
export function WhatHappensNext({ title, titleId, items, footer, className }: WhatHappensNextProps) {
  return (
    <aside className={`card next-card${className ? ` ${className}` : ''}`} aria-labelledby={titleId} data-testid="what-happens-next">
      <h2 id={titleId} className="next-card__title">
        {title}
      </h2>
      <IconList items={items} />
      {footer && <p className="next-card__footer">{footer}</p>}
    </aside>
  );
}
