import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { IdentityStatus } from '../../../../events/identity';
import { REVIEW_TIME_TEXT } from '../../../../events/founding-values';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';
import { identityApi } from './api';
import { ConsentSteps, choiceLabel } from './ConsentSteps';
import { problemOf, selfieMessage, stepOf, tokenFromHash, type Problem } from './flow';
import { LinkState, StepHeading, StepList } from './parts';
import { SelfieStep } from './SelfieStep';
import { longDate, WithdrawFaceConsent } from './WithdrawFaceConsent';
import './identity.css';

type Load = { at: 'loading' } | { at: 'ready'; status: IdentityStatus } | { at: 'failed'; problem: Problem };

/** What the confirmation page hands over when it continues here (router state: never in a URL). */
interface IdentityNavState {
  confirmed?: string;
}

/**
 * /founding/identity#token=... (docs/identity.md): after the email is confirmed, the applicant
 * answers the face data consent (first, on its own), signs the consent text and, with face
 * consent, takes a live selfie. The confirmation page continues here; a phone opens the same
 * link from the QR code, and the page resumes where the applicant stands.
 */
export function IdentityPage() {
  usePageTitle('Confirm it is you');
  const { apiUrl, contactEmail } = useConfig();
  const location = useLocation();
  const token = tokenFromHash(location.hash);
  const confirmed = (location.state as IdentityNavState | null)?.confirmed;
  const api = useMemo(() => identityApi({ apiUrl }), [apiUrl]);
  const [load, setLoad] = useState<Load>({ at: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [checking, setChecking] = useState(false);
  const [checkNote, setCheckNote] = useState<string>();
  // Set when the applicant has just withdrawn the face data consent here: the focus goes to what it did.
  const [justWithdrawn, setJustWithdrawn] = useState(false);
  const [consentPart, setConsentPart] = useState<{ part: 'face' | 'sign'; faceConsent: boolean | null }>({ part: 'face', faceConsent: null });

  useEffect(() => {
    if (!token) return undefined;
    let live = true;
    api.status(token).then(
      (status) => live && setLoad({ at: 'ready', status }),
      (err: unknown) => live && setLoad({ at: 'failed', problem: problemOf(err, 'identity', contactEmail) }),
    );
    return () => {
      live = false;
    };
  }, [api, token, contactEmail, reloads]);

  /** Reads the status again (after finishing on the phone), keeping the page while it asks. */
  function checkAgain() {
    if (!token) return;
    setChecking(true);
    setCheckNote(undefined);
    api.status(token).then(
      (status) => {
        setChecking(false);
        if (stepOf(status) === 'selfie' && load.at === 'ready' && status.selfie.state === load.status.selfie.state) {
          setCheckNote('No selfie has come from your phone yet. Take it there, then press “I finished on my phone” again.');
        }
        setLoad({ at: 'ready', status });
      },
      (err: unknown) => {
        setChecking(false);
        setLoad({ at: 'failed', problem: problemOf(err, 'identity', contactEmail) });
      },
    );
  }

  const lost = (problem: Problem) => setLoad({ at: 'failed', problem });
  const ready = (status: IdentityStatus) => setLoad({ at: 'ready', status });

  const retry = () => {
    setLoad({ at: 'loading' });
    setReloads((n) => n + 1);
  };
  let body;
  if (!token || load.at === 'loading' || load.at === 'failed') {
    // Why there is nothing to show yet.
    body = <LinkState name="identity" token={token} loading="Loading your application…" pending={load.at === 'loading'} problem={load.at === 'failed' ? load.problem : undefined} onRetry={retry} />;
  } else {
    const { status } = load;
    const step = stepOf(status);
    const withSelfie = step === 'consent' ? consentPart.faceConsent !== false : status.faceConsent === 'given';
    const steps = ['Face data', 'Signature', ...(withSelfie ? ['Selfie'] : [])];
    const current = step === 'consent' ? (consentPart.part === 'face' ? 0 : 1) : step === 'selfie' ? 2 : steps.length;
    body = (
      <>
        <StepList steps={steps} current={current} />
        {step === 'consent' && (
          <ConsentSteps
            api={api}
            token={token}
            status={status}
            contactEmail={contactEmail}
            onPart={(part, faceConsent) => setConsentPart({ part, faceConsent })}
            onSigned={ready}
            onLinkLost={lost}
          />
        )}
        {step === 'selfie' && (
          <SelfieStep
            api={api}
            token={token}
            status={status}
            contactEmail={contactEmail}
            onStatus={ready}
            onLinkLost={lost}
            onCheckAgain={checkAgain}
            checking={checking}
            checkNote={checkNote}
          />
        )}
        {step === 'done' && <Done status={status} focusWithdrawal={justWithdrawn} />}
        {step !== 'consent' && status.faceConsent === 'given' && (
          <WithdrawFaceConsent
            api={api}
            token={token}
            status={status}
            contactEmail={contactEmail}
            onStatus={(next) => {
              setJustWithdrawn(true);
              ready(next);
            }}
            onLinkLost={lost}
          />
        )}
      </>
    );
  }

  return (
    <div className="container idv" data-testid="identity-page">
      <header className="idv-head">
        <p className="eyebrow">Your talent application</p>
        <h1>Confirm it is you</h1>
        {confirmed && (
          <p className="idv-confirmed" role="status" data-testid="confirm-result">
            {confirmed}
          </p>
        )}
        <p className="lead">Your answer on face data, your signature and, if you agree, a selfie. It takes about two minutes.</p>
      </header>
      {body}
      <p className="idv-footer">
        Questions? Write to <a href={`mailto:${contactEmail}`}>{contactEmail}</a> or read our{' '}
        <Link to="/founding-talent-privacy#face-data">Privacy Policy on face data</Link>.
      </p>
    </div>
  );
}

/** The end of the flow: what happens next, in the words of the last answer. */
function Done({ status, focusWithdrawal = false }: { status: IdentityStatus; focusWithdrawal?: boolean }) {
  const withdrawal = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focusWithdrawal) withdrawal.current?.focus();
  }, [focusWithdrawal]);
  const selfie = status.faceConsent === 'given' ? selfieMessage(status) : undefined;
  const matched = status.selfie.state === 'match';
  return (
    <section className="card idv-step idv-done" aria-labelledby="idv-done-title" data-testid="identity-done">
      <StepHeading id="idv-done-title">{status.firstName ? `Thank you, ${status.firstName}` : 'Thank you'}</StepHeading>
      <div role="status">
        {selfie && (
          <p className={matched ? 'idv-result idv-result--match' : 'idv-result'} data-testid="selfie-result">
            {selfie}
          </p>
        )}
        <p>
          You signed the consent{status.consent.signedAt ? ` on ${longDate(status.consent.signedAt)}` : ''}.{' '}
          {status.faceConsent === 'declined'
            ? `Your answer on face data: “${choiceLabel(false)}”. Nothing about your face is analysed; a reviewer compares your photos by hand.`
            : status.faceConsent === 'withdrawn'
              ? ''
              : `Your answer on face data: “${choiceLabel(true)}”.`}
        </p>
        {status.faceConsent === 'withdrawn' && (
          <p ref={withdrawal} tabIndex={-1} className="idv-withdrawn" data-testid="face-consent-withdrawn">
            You withdrew your face data consent{status.faceConsentWithdrawnAt ? ` on ${longDate(status.faceConsentWithdrawnAt)}` : ''}. Your
            selfie and the face analyses of your photos are deleted, and nothing about your face is analysed again; a reviewer compares your
            photos by hand.
          </p>
        )}
      </div>
      {status.state === 'awaiting-photos' ? (
        <p>Some of your photos cannot be used for training: we emailed you a link to replace them. The review starts once you have.</p>
      ) : (
        <p>We review applications within {REVIEW_TIME_TEXT}, and email you the decision. You can close this page.</p>
      )}
    </section>
  );
}
