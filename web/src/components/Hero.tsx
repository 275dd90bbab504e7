import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import './Hero.css';

interface HeroProps {
  titleId: string;
  /** The page's own hero class, for what differs (spacing, art, headline). */
  className: string;
  /** The copy: eyebrow, heading, lead, then HeroActions and HeroPoints. */
  children: ReactNode;
  /** Beside the copy on wide screens: an illustration or a carousel. */
  art: ReactNode;
}

/** A page's opening section: the copy beside art. */
export function Hero({ titleId, className, children, art }: HeroProps) {
  return (
    <section className={`hero ${className}`} aria-labelledby={titleId}>
      <div className="container hero__inner">
        <div className="hero__copy">{children}</div>
        {art}
      </div>
    </section>
  );
}

export function HeroActions({ children }: { children: ReactNode }) {
  return <div className="hero__actions">{children}</div>;
}

/** Short selling points under the actions, each with an icon (a tick unless named). */
export function HeroPoints({ points }: { points: readonly (string | { icon: IconName; text: string })[] }) {
  return (
    <ul className="hero__points">
      {points.map((point) => {
        const { icon, text } = typeof point === 'string' ? { icon: 'check' as const, text: point } : point;
        return (
          <li key={text}>
            <Icon name={icon} size={18} /> {text}
          </li>
        );
      })}
    </ul>
  );
}
