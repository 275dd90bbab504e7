import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import './Toast.css';

/* A toast's own code loads with the first toast, not with every page (decision 063). */
const Toast = lazy(() => import('./ToastItem').then((m) => ({ default: m.Toast })));

type ToastVariant = 'default' | 'success' | 'error';

interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before the toast dismisses itself; defaults to 5000. */
  duration?: number;
}

export interface ToastItem extends Required<Omit<ToastOptions, 'description'>> {
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
          <Suspense fallback={null}>
            {toasts.map((toast) => (
              <Toast key={toast.id} toast={toast} onDismiss={dismiss} />
            ))}
          </Suspense>
        </div>
      </section>
    </ToastContext>
  );
}

/** Returns `toast({ title, description, variant })`. */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast must be used inside <ToastProvider>');
  return useMemo(() => show, [show]);
}
