import { ConfirmDialog } from '../../components/ConfirmDialog';
import './withdraw.css';

/**
 * The confirmation before the face data consent is withdrawn on the identity page
 * (docs/identity.md, "Withdrawal"; ConfirmDialog) saying what withdrawing does. Errors from the
 * API are shown inside; `withdraw` resolves once the server has withdrawn it.
 */
export function WithdrawDialog({ withdraw, onClose }: { withdraw: () => Promise<void>; onClose: () => void }) {
  return (
    <ConfirmDialog
      title="Withdraw your face data consent?"
      description={
        <>
          <p>If you withdraw it:</p>
          <ul>
            <li>your selfie and the face analyses of your photos are deleted now;</li>
            <li>nothing about your face is analysed again;</li>
            <li>a reviewer compares your photos by hand, and your application goes on.</li>
          </ul>
          <p className="withdraw-dialog__note">
            Your photos stay with your application. The consent you signed stays on record as you gave it, with the date you withdrew it.
            You cannot give it again afterwards.
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
