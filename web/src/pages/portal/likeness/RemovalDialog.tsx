import { useState } from 'react';
import type { LikenessStatus } from '../../../../../events/likeness';
import { FOUNDING_REMOVAL_WARNING, REMOVAL_NOTICE_DAYS } from '../../../../../events/royalty-values';
import { ConfirmDialog } from '../../../components/ConfirmDialog';

/**
 * The confirmation before a removal request (ConfirmDialog): the notice, what removal does and,
 * for founding talent, the rate warning to tick before Confirm. Errors from the API are shown inside.
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
  const [accepted, setAccepted] = useState(false);

  const confirm = async () => {
    if (founding && !accepted) throw new Error('Tick the box to confirm you give up your founding rate.');
    onDone(await request(founding ? accepted : false));
  };

  return (
    <ConfirmDialog
      title="Remove your likeness?"
      description={
        <p>
          Removal takes effect after a {REMOVAL_NOTICE_DAYS}-day notice. Until then nothing changes, and you can cancel it from this page.
          We will email you the date.
        </p>
      }
      confirmLabel="Confirm removal"
      busyLabel="Requesting…"
      cancelLabel="Keep my likeness"
      danger
      confirmDisabled={founding && !accepted}
      onConfirm={confirm}
      errorFallback="Your removal request could not be sent. Try again."
      onClose={onClose}
      testId="removal-dialog"
    >
      {(busy) => (
        <>
          <p>When it takes effect:</p>
          <ul>
            <li>you leave the Talent Library and the create page, and nobody can generate images with your likeness;</li>
            <li>your model configuration is cleared;</li>
            <li>licenses already issued for images of your likeness stay valid, and your statements stay here.</li>
          </ul>
          {founding && (
            <div className="removal-dialog__warning">
              <p className="removal-dialog__rate">
                <strong>{FOUNDING_REMOVAL_WARNING}</strong>
              </p>
              <label className="removal-dialog__check">
                <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} disabled={busy} required aria-required="true" />
                <span>I understand that I lose my founding 35% rate for good.</span>
              </label>
            </div>
          )}
        </>
      )}
    </ConfirmDialog>
  );
}
