import type { ReactNode } from 'react';
import type { IconListItem } from '../IconList';
import { WhatHappensNext } from '../WhatHappensNext';
import './ApplicationSection.css';

interface ApplicationSectionProps {
  /** The application form; its wrapper is the `#application-form` the page's buttons jump to. */
  form: ReactNode;
  next: readonly IconListItem[];
  nextTitleId: string;
  /** The closing line of the what-happens-next card. */
  nextFooter: ReactNode;
  id?: string;
}

/** The application form beside what happens next (the card stays in view on wide screens). */
export function ApplicationSection({ form, next, nextTitleId, nextFooter, id }: ApplicationSectionProps) {
  return (
    <section id={id} className="section section--muted" aria-label="Application">
      <div className="container apply-section__grid">
        <div id="application-form" className="apply-section__form">
          {form}
        </div>
        <WhatHappensNext title="What Happens Next" titleId={nextTitleId} items={next} footer={nextFooter} className="apply-section__next" />
      </div>
    </section>
  );
}
