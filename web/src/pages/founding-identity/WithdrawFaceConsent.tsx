import { useEffect, useRef, useState } from 'react';
import type { IdentityStatus } from '../../../../events/identity';
import type { IdentityApi } from './api';
import { problemOf, type Problem } from './flow';
import { WithdrawFaceConsentDialog } from '../../components/WithdrawFaceConsentDialog';
import './withdraw.css';

/** "28 November 2026". */
export const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/**
 * Under the ID verification and the end of the flow, once face consent was given: when it was given
 * and the control that withdraws it, after a confirmation (docs/identity.md, "Withdrawal").
 */
export function WithdrawFaceConsent({
  api,
  token,
  status,
  contactEmail,
  onStatus,
  onLinkLost,
}: {
  api: Pick<IdentityApi, 'withdrawConsent'>;
  token: string;
  status: IdentityStatus;
  contactEmail: string;
  onStatus: (status: IdentityStatus) => void;
  onLinkLost: (problem: Problem) => void;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // Back on the control once the dialog closes without withdrawing (while open, the page behind is inert).
  useEffect(() => {
    if (!open && wasOpen.current) button.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const withdraw = async () => {
    try {
      const next = await api.withdrawConsent(token);
      setOpen(false);
      onStatus(next);
    } catch (err) {
      const problem = problemOf(err, 'identity', contactEmail);
      if (problem.kind === 'link') {
        setOpen(false);
        onLinkLost(problem);
        return;
      }
      throw new Error(problem.text, { cause: err });
    }
  };

  return (
    <section className="idv-withdraw" aria-label="Your face data consent" data-testid="identity-withdraw">
      <p>
        You agreed to face checks{status.consent.signedAt ? ` on ${longDate(status.consent.signedAt)}` : ''}. You can withdraw this consent
        at any time:{' '}
        <button ref={button} type="button" className="idv-link-button" aria-haspopup="dialog" onClick={() => setOpen(true)} data-testid="withdraw-open">
          Withdraw face data consent
        </button>
      </p>
      {open && (
        <WithdrawFaceConsentDialog
          review="a reviewer compares your photos by hand, and your application goes on."
          unaffected="Your photos stay with your application."
          withdraw={withdraw}
          onClose={() => setOpen(false)}
        />
      )}
    </section>
  );
}
