import type { ReactNode } from 'react';

/** One fact of a `Facts` list: its term, its value, and what tests and styles find it by. */
export interface Fact {
  term: string;
  value: ReactNode;
  testId?: string;
  className?: string;
}

/**
 * A card's facts (a license's id, licensee and date; a report's reference and deadline) as a
 * description list, each term with its value, which screen readers announce as pairs. The list's
 * class gives its layout.
 */
export function Facts({ className, facts }: { className: string; facts: Fact[] }) {
  return (
    <dl className={className}>
      {facts.map((fact) => (
        <div key={fact.term}>
          <dt>{fact.term}</dt>
          <dd className={fact.className} data-testid={fact.testId}>
            {fact.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
