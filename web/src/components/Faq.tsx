import './Faq.css';

export interface FaqItem {
  question: string;
  answer: string;
}

/** The FAQ section: a heading and the questions as disclosures. */
export function Faq({ items, muted = false }: { items: readonly FaqItem[]; muted?: boolean }) {
  return (
    <section id="faq" className={`section${muted ? ' section--muted' : ''}`} aria-labelledby="faq-title">
      <div className="container faq">
        <div className="section__header">
          <p className="eyebrow">FAQ</p>
          <h2 id="faq-title">Questions, answered</h2>
        </div>
        <div className="faq__list" data-testid="faq">
          {items.map((item) => (
            <details key={item.question} className="faq__item">
              <summary className="faq__question">
                <span>{item.question}</span>
                <svg className="faq__chevron" viewBox="0 0 16 16" width="18" height="18" aria-hidden="true" focusable="false">
                  <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </summary>
              <p className="faq__answer">{item.answer}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
