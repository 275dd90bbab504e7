import { Icon } from './Icon';
import type { IconListItem } from './IconList';

interface BadgeListProps {
  items: readonly IconListItem[];
  /** The page's list class (its grid) and each item's. */
  className: string;
  itemClassName?: string;
  /** Plum badges (the primary colour otherwise). */
  plum?: boolean;
  'data-testid'?: string;
}

/** A list of benefits, each an icon badge beside its title and text (why join, what a contract gives). */
export function BadgeList({ items, className, itemClassName, plum, 'data-testid': testId }: BadgeListProps) {
  return (
    <ul className={className} data-testid={testId}>
      {items.map((item) => (
        <li key={item.title} className={itemClassName}>
          <span className={`icon-badge${plum ? ' icon-badge--plum' : ''}`} aria-hidden="true">
            <Icon name={item.icon} />
          </span>
          <div>
            <h3>{item.title}</h3>
            <p>{item.body}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
