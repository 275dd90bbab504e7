import { useEffect, useRef } from 'react';

/**
 * An in-page alert in place of window.alert: announced (role="alert") and focused, so keyboard
 * and screen-reader users land on it. `message` is shown exactly as given (docs/product.md#founding-messages).
 */
export function FormAlert({ message, tone = 'error', onDismiss }: { message: string; tone?: 'error' | 'info'; onDismiss?: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [message]);
  return (
    <div ref={ref} className={`form-alert form-alert--${tone}`} role="alert" tabIndex={-1} data-testid="form-alert">
      <svg viewBox="0 0 16 16" width="20" height="20" aria-hidden="true" focusable="false">
        <circle cx="8" cy="8" r="7" fill="currentColor" />
        <path d={tone === 'error' ? 'M8 4.5v4.2M8 11.1v.4' : 'M8 7.5v4M8 4.6v.4'} stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <p className="form-alert__text">{message}</p>
      {onDismiss && (
        <button type="button" className="form-alert__close" onClick={onDismiss} aria-label="Dismiss message">
          ×
        </button>
      )}
    </div>
  );
}
