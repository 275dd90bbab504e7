import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import './IconList.css';

export interface IconListItem {
  icon: IconName;
  title: string;
  body: ReactNode;
}

interface IconListProps {
  items: readonly IconListItem[];
  /** Steps: screen readers hear "Step N:" before each title. */
  steps?: boolean;
  /** Muted tiles with square icons, side by side on wide screens. */
  tiles?: boolean;
  'aria-label'?: string;
}

/** An ordered list of items, each a round icon beside its title and text (what happens next, how it works). */
export function IconList({ items, steps, tiles, 'aria-label': label }: IconListProps) {
  return (
    <ol className={`icon-list${tiles ? ' icon-list--tiles' : ''}`} aria-label={label}>
      {items.map((item, i) => (
        <li key={item.title} className="icon-list__item">
          <span className="icon-circle icon-list__icon" aria-hidden="true">
            <Icon name={item.icon} size={20} />
          </span>
          <div>
            <h3>
              {steps && <span className="sr-only">Step {i + 1}: </span>}
              {item.title}
            </h3>
            <p>{item.body}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
