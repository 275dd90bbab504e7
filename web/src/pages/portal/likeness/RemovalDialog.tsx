import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { LikenessStatus } from '../../../../../events/likeness';
import { FOUNDING_REMOVAL_WARNING, REMOVAL_NOTICE_DAYS } from '../../../../../events/royalty-values';

/**
 * The confirmation before a removal request: a modal <dialog> (the page behind is inert, focus
 * stays inside, Escape closes it) with the notice, what removal does and, for founding talent,
 * the rate warning to tick before Confirm. Errors from the API are shown inside.
 */
export function RemovalDialog({
  founding,
  request,
  onDone,
  onClose,
}: {
  founding: boolean;
  request: (acceptFoundingRateLoss: boolean) => Promise<LikenessStatus>;
  onDone: (status: LikenessStatus) => void;
  onClose: () => void;
}) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [accepted, setAccepted] = useState(false);
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
    if (founding && !accepted) {
      setError('Tick the box to confirm you give up your founding rate.');
      return;
    }
    setSending(true);
    setError(undefined);
    try {
      onDone(await request(founding ? accepted : false));
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Your removal request could not be sent. Try again.');
      setSending(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="removal-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-notice`}
      // Escape (and the browser's close) closes it, unless a request is on its way.
      onCancel={(e) => {
        e.preventDefault();
        if (!sending) onClose();
      }}
      data-testid="removal-dialog"
    >
      <form onSubmit={(e) => void confirm(e)} noValidate>
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="removal-dialog__title">
          Remove your likeness?
        </h2>
        <p id={`${id}-notice`}>
          Removal takes effect after a {REMOVAL_NOTICE_DAYS}-day notice. Until then nothing changes, and you can cancel it from this
          page. We will email you the date.
        </p>
        <p>When it takes effect:</p>
        <ul className="removal-dialog__list">
          <li>you leave the Talent Library and the create page, and nobody can generate images with your likeness;</li>
          <li>your model configuration is cleared;</li>
          <li>licenses already issued for images of your likeness stay valid, and your statements stay here.</li>
        </ul>
        {founding && (
          <div className="removal-dialog__warning">
            <p>
              <strong>{FOUNDING_REMOVAL_WARNING}</strong>
            </p>
            <label className="removal-dialog__check">
              <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} disabled={sending} required aria-required="true" />
              <span>I understand that I lose my founding 35% rate for good.</span>
            </label>
          </div>
        )}
        <p className="acct-error" role="alert">
          {error}
        </p>
        <div className="acct-actions removal-dialog__actions">
          <button type="submit" className="button button--primary likeness-remove--confirm" disabled={sending || (founding && !accepted)}>
            {sending ? 'Requesting…' : 'Confirm removal'}
          </button>
          <button type="button" className="button button--ghost" onClick={onClose} disabled={sending}>
            Keep my likeness
          </button>
        </div>
      </form>
    </dialog>
  );
}
