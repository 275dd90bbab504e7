import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import './FaceDataCard.css';

/**
 * The talent portal's confirmation before the face data consent is withdrawn (docs/identity.md,
 * "Withdrawal"): a modal <dialog> (the page behind is inert, focus stays inside, Escape closes
 * it) saying what withdrawing does. Errors from the API are shown inside; `withdraw` resolves
 * once the server has withdrawn it.
 */
export function WithdrawDialog({ withdraw, onClose }: { withdraw: () => Promise<void>; onClose: () => void }) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    if (!dialog.open) dialog.showModal();
    heading.current?.focus();
    return () => dialog.close();
  }, []);

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setError(undefined);
    try {
      await withdraw();
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : 'Your consent could not be withdrawn. Try again.');
      setSending(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="face-data-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-what`}
      // Escape (and the browser's close) closes it, unless the request is on its way.
      onCancel={(e) => {
        e.preventDefault();
        if (!sending) onClose();
      }}
      data-testid="withdraw-dialog"
    >
      <form onSubmit={(e) => void confirm(e)} noValidate>
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="face-data-dialog__title">
          Withdraw your face data consent?
        </h2>
        <div id={`${id}-what`}>
          <p>If you withdraw it:</p>
          <ul className="face-data-dialog__list">
            <li>your selfie and the face analyses of your photos are deleted now;</li>
            <li>nothing about your face is analysed again;</li>
            <li>while your application is reviewed, a reviewer compares your photos by hand.</li>
          </ul>
          <p className="face-data-dialog__note">
            Your photos, your likeness and your earnings are not affected. The consent you signed stays on record as you gave it, with the date you withdrew it.
            You cannot give it again afterwards.
          </p>
        </div>
        <p className="face-data-dialog__error" role="alert">
          {error}
        </p>
        <div className="face-data-dialog__actions">
          <button type="submit" className="button button--primary face-data-dialog__confirm" disabled={sending} data-testid="withdraw-confirm">
            {sending ? 'Withdrawing…' : 'Withdraw consent'}
          </button>
          <button type="button" className="button button--ghost" onClick={onClose} disabled={sending}>
            Keep my consent
          </button>
        </div>
      </form>
    </dialog>
  );
}
