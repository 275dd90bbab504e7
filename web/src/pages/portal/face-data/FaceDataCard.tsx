import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { FaceDataStatus } from '../../../../../events/identity';
import { formatDate } from '../../../account/format';
import { Icon } from '../../../components/Icon';
import { useConfig } from '../../../config';
import { WithdrawFaceConsentDialog } from '../../../components/WithdrawFaceConsentDialog';
import type { SignedIn } from '../PortalGate';
import { faceDataApi } from './api';
import './FaceDataCard.css';
import { Loaded } from '../../../components/Loading';
import { useAccountQuery } from '../../../lib/query';

/** The consent's state in a line: "Consent given on Nov 28, 2026". */
function stateLine(status: FaceDataStatus): string {
  switch (status.faceConsent) {
    case 'given':
      return status.givenAt ? `Consent given on ${formatDate(status.givenAt)}` : 'Consent given';
    case 'withdrawn':
      return status.withdrawnAt ? `Consent withdrawn on ${formatDate(status.withdrawnAt)}` : 'Consent withdrawn';
    case 'declined':
      return 'Face checks declined';
    case 'pending':
      return 'No answer yet';
  }
}

/** What the state means for the talent. */
function stateBody(status: FaceDataStatus): string {
  switch (status.faceConsent) {
    case 'given':
      return 'Your photos and a live selfie were checked for faces, only to confirm they all show you. You can withdraw this consent at any time.';
    case 'withdrawn':
      return 'Your selfie and the face analyses of your photos were deleted, and nothing about your face is analysed. Your photos are reviewed by hand.';
    case 'declined':
      return 'Nothing about your face was analysed: a reviewer compared your photos by hand.';
    case 'pending':
      return 'You have not answered the face data consent: nothing about your face is analysed.';
  }
}

/**
 * The talent portal's face data card (docs/identity.md, "Withdrawal"): whether face data consent
 * was given on the application, and its withdrawal after a confirmation.
 */
export function FaceDataCard({ auth }: { auth: SignedIn }) {
  const id = useId();
  const { apiUrl } = useConfig();
  const api = useMemo(() => faceDataApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const [query, setStatus] = useAccountQuery('face-data', () => api.status());
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  const line = useRef<HTMLParagraphElement>(null);
  const wasOpen = useRef(false);

  // Once the dialog closes: back on the button, or on the new state once withdrawn (the button is gone).
  useEffect(() => {
    if (!open && wasOpen.current) (button.current ?? line.current)?.focus();
    wasOpen.current = open;
  }, [open]);

  const withdraw = async () => {
    const next = await api.withdraw();
    setStatus(next);
    setMessage('Your face data consent is withdrawn: your selfie and face analyses are deleted.');
    setOpen(false);
  };

  return (
    <section className="card acct-card face-data" aria-labelledby={`${id}-title`} aria-busy={query.isPending} data-testid="face-data-card">
      <h2 id={`${id}-title`} className="acct-card__title">
        <Icon name="shield" size={20} /> Face data
      </h2>
      <Loaded query={query} loading="Loading your face data consent…" failed="Your face data consent could not be loaded.">
        {(status) => (
          <>
            <p ref={line} tabIndex={-1} className="face-data__line" data-testid="face-data-state">
              <strong>{stateLine(status)}</strong>
            </p>
            <p className="acct-muted">{stateBody(status)}</p>
            {status.faceConsent === 'given' && (
              <div className="acct-actions">
                <button ref={button} type="button" className="button button--secondary face-data__withdraw" aria-haspopup="dialog" onClick={() => setOpen(true)} data-testid="face-data-withdraw">
                  Withdraw consent
                </button>
              </div>
            )}
          </>
        )}
      </Loaded>
      {/* Read out; the card's new state says the same for the eye. */}
      <p className="sr-only" role="status" data-testid="face-data-message">
        {message}
      </p>
      {open && (
        <WithdrawFaceConsentDialog
          review="while your application is reviewed, a reviewer compares your photos by hand."
          unaffected="Your photos, your likeness and your earnings are not affected."
          withdraw={withdraw}
          onClose={() => setOpen(false)}
        />
      )}
    </section>
  );
}
