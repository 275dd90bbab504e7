import { ConfirmDialog } from './ConfirmDialog';

/**
 * The confirmation before the face data consent is withdrawn (docs/identity.md, "Withdrawal"),
 * on the identity page and in the talent portal: what withdrawing does, then what it leaves as
 * it is, in the words of the place it is opened from. Errors from the API are shown inside;
 * `withdraw` resolves once the server has withdrawn it.
 */
export function WithdrawFaceConsentDialog({
  review,
  unaffected,
  withdraw,
  onClose,
}: {
  /** The last point of what happens: how the review goes on. */
  review: string;
  /** The first sentence of the note: what stays as it is. */
  unaffected: string;
  withdraw: () => Promise<void>;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      title="Withdraw your face data consent?"
      description={
        <>
          <p>If you withdraw it:</p>
          <ul>
            <li>your selfie and the face analyses of your photos are deleted now;</li>
            <li>nothing about your face is analysed again;</li>
            <li>{review}</li>
          </ul>
          <p className="confirm-dialog__note">
            {unaffected} The consent you signed stays on record as you gave it, with the date you withdrew it. You cannot give it again
            afterwards.
          </p>
        </>
      }
      confirmLabel="Withdraw consent"
      busyLabel="Withdrawing…"
      cancelLabel="Keep my consent"
      danger
      onConfirm={withdraw}
      errorFallback="Your consent could not be withdrawn. Try again."
      onClose={onClose}
      testId="withdraw-dialog"
      confirmTestId="withdraw-confirm"
    />
  );
}
