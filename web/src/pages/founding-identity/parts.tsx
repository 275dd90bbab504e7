import { useEffect, useRef, type ReactNode } from 'react';
import { PROBLEM_TEXTS, type Problem } from './flow';

/**
 * A step's heading, focused when it appears, so keyboard and screen-reader users land on each new
 * step (and hear its name) instead of on a button that has gone.
 */
export function StepHeading({ id, children, level = 2 }: { id: string; children: ReactNode; level?: 2 | 3 }) {
  const ref = useRef<HTMLHeadingElement>(null);
  // Again for another step in the same place (React keeps the element and changes its id).
  useEffect(() => {
    ref.current?.focus();
  }, [id]);
  const Tag = level === 2 ? 'h2' : 'h3';
  return (
    <Tag ref={ref} id={id} tabIndex={-1} className="idv-step__title">
      {children}
    </Tag>
  );
}

/**
 * An alert read out at once (role="alert"): a failure and what to do. It takes the focus when it
 * appears (the button pressed was disabled while sending, which drops the focus); give it a new
 * key to have it appear again for a second failure.
 */
export function Alert({ children, testId = 'idv-alert' }: { children: ReactNode; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} className="idv-alert" role="alert" tabIndex={-1} data-testid={testId}>
      <svg viewBox="0 0 16 16" width="20" height="20" aria-hidden="true" focusable="false">
        <circle cx="8" cy="8" r="7" fill="currentColor" />
        <path d="M8 4.5v4.2M8 11.1v.4" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <div className="idv-alert__text">{children}</div>
    </div>
  );
}

/** Where the applicant is among the steps: a list whose current item says so to screen readers. */
export function StepList({ steps, current }: { steps: readonly string[]; current: number }) {
  return (
    <ol className="idv-steps" aria-label="Steps">
      {steps.map((label, i) => (
        <li key={label} className={i < current ? 'is-done' : i === current ? 'is-current' : undefined} aria-current={i === current ? 'step' : undefined}>
          <span className="idv-steps__number" aria-hidden="true">
            {i < current ? '✓' : i + 1}
          </span>
          <span>
            {label}
            {i < current && <span className="sr-only"> (done)</span>}
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * What a link's page (`name`: identity, photos) shows until its application is in: the link has no
 * token, the application is loading (`loading`), or it could not be read, with Try again unless
 * the link itself is the problem. Nothing once it is in.
 */
export function LinkState(props: { name: string; token: string | undefined; loading: string; problem?: Problem; pending: boolean; onRetry: () => void }) {
  const { name, token, loading, problem, pending, onRetry } = props;
  if (!token) {
    return (
      <Alert testId={`${name}-link-problem`}>
        <p>{PROBLEM_TEXTS.noToken}</p>
      </Alert>
    );
  }
  if (pending) {
    return (
      <p className="idv-waiting" role="status">
        {loading}
      </p>
    );
  }
  if (!problem) return null;
  return (
    <Alert testId={problem.kind === 'link' ? `${name}-link-problem` : `${name}-load-problem`}>
      <p>{problem.text}</p>
      {problem.kind !== 'link' && (
        <button type="button" className="button button--secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </Alert>
  );
}
