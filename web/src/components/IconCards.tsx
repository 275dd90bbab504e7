import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import './IconCards.css';

interface IconCard {
  icon: IconName;
  title: string;
  body: ReactNode;
}

interface IconCardsProps {
  items: readonly IconCard[];
  /** The page's grid class (its columns and gaps). */
  className: string;
  /** Each card's own class, by position. */
  itemClassName?: (index: number) => string | undefined;
  /** Steps: an ordered list with a decorative number on each card, plum or peach. */
  numbered?: 'plum' | 'peach';
  /** Screen readers hear "Step N:" before each title. */
  stepLabels?: boolean;
  /** An ordered list without the decorative numbers. */
  ordered?: boolean;
  /** Which badges are plum (the others are peach). */
  plumBadge?: (index: number) => boolean;
  'data-testid'?: string;
}

/** Cards in a grid, each an icon badge above its title and text (features, benefits, steps). */
export function IconCards({ items, className, itemClassName, numbered, stepLabels, ordered, plumBadge, 'data-testid': testId }: IconCardsProps) {
  const List = numbered || ordered ? 'ol' : 'ul';
  return (
    <List className={`icon-cards ${className}`} data-testid={testId}>
      {items.map((item, i) => {
        const extra = itemClassName?.(i);
        return (
          <li key={item.title} className={`card${numbered ? ' icon-cards__item--numbered' : ''}${extra ? ` ${extra}` : ''}`}>
            {numbered && (
              <span className={`icon-cards__number${numbered === 'peach' ? ' icon-cards__number--peach' : ''}`} aria-hidden="true">
                {i + 1}
              </span>
            )}
            <span className={`icon-badge${plumBadge?.(i) ? ' icon-badge--plum' : ''}`} aria-hidden="true">
              <Icon name={item.icon} />
            </span>
            <h3>
              {stepLabels && <span className="sr-only">Step {i + 1}: </span>}
              {item.title}
            </h3>
            <p>{item.body}</p>
          </li>
        );
      })}
    </List>
  );
}
