import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import './Toast.css';

type ToastVariant = 'default' | 'success' | 'error';

interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before the toast dismisses itself; defaults to 5000. */
  duration?: number;
}

interface ToastItem extends Required<Omit<ToastOptions, 'description'>> {
  id: number;
  description?: string;
}

type ShowToast = (options: ToastOptions) => void;

const ToastContext = createContext<ShowToast | null>(null);

const DEFAULT_DURATION_MS = 5000;
const MAX_VISIBLE = 3;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.filter((t) => t.id !== id));
  }, []);

  const show = useCallback<ShowToast>(({ title, description, variant = 'default', duration = DEFAULT_DURATION_MS }) => {
    const id = nextId.current++;
    setToasts((current) => [...current, { id, title, description, variant, duration }].slice(-MAX_VISIBLE));
  }, []);

  return (
    <ToastContext value={show}>
      {children}
      {/* The live region is always rendered so screen readers announce toasts added to it. */}
      <section className="toast-region" aria-label="Notifications">
        <div role="status" aria-live="polite" className="toast-list">
          {toasts.map((toast) => (
            <Toast key={toast.id} toast={toast} onDismiss={dismiss} />
          ))}
        </div>
      </section>
    </ToastContext>
  );
}

function Toast({ toast, onDismiss }: { toast: ToastItem; onDismiss: (id: number) => void }) {
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

/** Returns `toast({ title, description, variant })`. */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast must be used inside <ToastProvider>');
  return useMemo(() => show, [show]);
}
