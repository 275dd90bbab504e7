import { useEffect, useState } from 'react';
import type { ToastItem } from './Toast';

/** One toast (./Toast.tsx): its title, description and close button; it dismisses itself after its duration. */
export function Toast({ toast, onDismiss }: { toast: ToastItem; onDismiss: (id: number) => void }) {
  // The timer pauses while the toast is hovered or focused, so nobody loses a message mid-read.
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (paused) return undefined;
    const timer = window.setTimeout(() => onDismiss(toast.id), toast.duration);
    return () => window.clearTimeout(timer);
  }, [paused, toast.id, toast.duration, onDismiss]);

  return (
    <div
      className={`toast toast--${toast.variant}`}
      data-testid="toast"
      data-variant={toast.variant}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <span className="toast__icon" aria-hidden="true">
        {toast.variant === 'error' ? '!' : '✓'}
      </span>
      <div className="toast__body">
        <p className="toast__title" data-testid="toast-title">
          {toast.title}
        </p>
        {toast.description && (
          <p className="toast__description" data-testid="toast-description">
            {toast.description}
          </p>
        )}
      </div>
      <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={() => onDismiss(toast.id)}>
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
