import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './ConfirmDialog.css';

/**
 * A confirmation before an action: a modal <dialog> (the page behind is inert, focus stays
 * inside, focus starts on the heading), named by its title and described by `description`.
 * It is drawn in <body>, so the styles of the place that opens it do not reach it.
 * Escape (or the browser's close) calls `onClose`, unless the confirmation is on its way.
 *
 * Confirm calls `onConfirm`: while it runs both buttons are disabled and Confirm reads
 * `busyLabel`. When it rejects, the error's message (or `errorFallback` when it has none) shows
 * inside and the dialog stays open and usable. The caller closes the dialog (unmounts it) once
 * the action is done.
 */
export function ConfirmDialog({
  title,
  description,
  children,
  confirmLabel,
  busyLabel,
  cancelLabel,
  danger = false,
  confirmDisabled = false,
  onConfirm,
  errorFallback,
  onClose,
  testId,
  confirmTestId,
}: {
  title: ReactNode;
  /** What confirming does: the dialog's accessible description, first under the title. */
  description: ReactNode;
  /** More of the body under the description; a function gets whether the confirmation is on its way. */
  children?: ReactNode | ((busy: boolean) => ReactNode);
  confirmLabel: string;
  /** Confirm's label while `onConfirm` runs ("Sending…"). */
  busyLabel: string;
  cancelLabel: string;
  /** Confirm looks destructive (red). */
  danger?: boolean;
  confirmDisabled?: boolean;
  onConfirm: () => Promise<void>;
  /** Shown when `onConfirm` rejects with no message of its own. */
  errorFallback: string;
  onClose: () => void;
  testId?: string;
  confirmTestId?: string;
}) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    if (!dialog.open) dialog.showModal();
    heading.current?.focus();
    return () => dialog.close();
  }, []);

  // After a refusal: Confirm was disabled while busy, which drops the focus; put it back inside.
  useEffect(() => {
    if (busy || !refocus.current) return;
    refocus.current = false;
    if (ref.current?.contains(document.activeElement)) return;
    const button = confirmButton.current;
    (button && !button.disabled ? button : heading.current)?.focus();
  }, [busy, error]);

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || confirmDisabled) return;
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : errorFallback);
      refocus.current = true;
    }
    setBusy(false);
  };

  return createPortal(
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
      data-testid={testId}
    >
      <form onSubmit={(e) => void confirm(e)} noValidate>
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="confirm-dialog__title">
          {title}
        </h2>
        <div id={`${id}-description`}>{description}</div>
        {typeof children === 'function' ? children(busy) : children}
        <p className="confirm-dialog__error" role="alert">
          {error}
        </p>
        <div className="confirm-dialog__actions">
          <button
            ref={confirmButton}
            type="submit"
            className={`button button--primary${danger ? ' confirm-dialog__danger' : ''}`}
            disabled={busy || confirmDisabled}
            data-testid={confirmTestId}
          >
            {busy ? busyLabel : confirmLabel}
          </button>
          <button type="button" className="button button--ghost" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}
