import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { IdentityStatus } from '../../../../events/identity';
import { REVIEW_TIME_TEXT } from '../../../../events/founding-values';
import { useConfig } from '../../config';
import { QueryProvider } from '../../lib/query';
import { usePageTitle } from '../../lib/usePageTitle';
import { identityApi } from './api';
import { ConsentSteps, choiceLabel } from './ConsentSteps';
import { problemOf, refreshInterval, RETURN_READS, selfieMessage, stepOf, tokenForTab, verificationView, type Problem } from './flow';
import { LinkState, StepHeading, StepList } from './parts';
import { VerifyStep } from './VerifyStep';
import { longDate, WithdrawFaceConsent } from './WithdrawFaceConsent';
import './identity.css';

/** What the confirmation page hands over when it continues here (router state: never in a URL). */
interface IdentityNavState {
  confirmed?: string;
}

/**
 * /founding/identity#token=... (docs/identity.md, decision 056): after the email is confirmed, the
 * applicant answers the face data consent (first, on its own), signs the consent text and
 * verifies their ID on Stripe's page, which sends them back here without the token: the token of
 * the link is kept for this tab. A phone opens the same link from the QR code, and the page
 * resumes where the applicant stands. The status is read through TanStack Query (decision 052),
 * again and again while Stripe checks the ID; the page's own query client goes with its chunk.
 */
export function IdentityPage() {
  usePageTitle('Confirm it is you');
  const { contactEmail } = useConfig();
  const location = useLocation();
  const { token, fromLink } = useMemo(() => tokenForTab(location.hash), [location.hash]);
  const confirmed = (location.state as IdentityNavState | null)?.confirmed;
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
        <p className="lead">Your answer on face data, your signature, and your ID checked by Stripe. It takes about five minutes.</p>
      </header>
      <QueryProvider owner={token ?? ''}>
        <IdentityFlow token={token} fromLink={fromLink} />
      </QueryProvider>
      <p className="idv-footer">
        Questions? Write to <a href={`mailto:${contactEmail}`}>{contactEmail}</a> or read our{' '}
        <Link to="/founding-talent-privacy#face-data">Privacy Policy on ID and face data</Link>.
      </p>
    </div>
  );
}

function IdentityFlow({ token, fromLink }: { token: string | undefined; fromLink: boolean }) {
  const { apiUrl, contactEmail } = useConfig();
  const api = useMemo(() => identityApi({ apiUrl }), [apiUrl]);
  const client = useQueryClient();
  const key = ['identity-status', token];
  const query = useQuery({
    queryKey: key,
    queryFn: () => api.status(token!),
    enabled: !!token,
    // While Stripe's answer is on its way or Stripe checks, read again by itself.
    refetchInterval: (q) => (q.state.data ? refreshInterval(verificationView(q.state.data.verification, !fromLink && q.state.dataUpdateCount <= RETURN_READS), q.state.dataUpdateCount) : false),
  });
  const [checking, setChecking] = useState(false);
  const [checkNote, setCheckNote] = useState<string>();
  // A link that stopped working during an action: nothing else can be done with it.
  const [lost, setLost] = useState<Problem>();
  // Set when the applicant has just withdrawn the face data consent here: the focus goes to what it did.
  const [justWithdrawn, setJustWithdrawn] = useState(false);
  const [consentPart, setConsentPart] = useState<{ part: 'face' | 'sign'; faceConsent: boolean | null }>({ part: 'face', faceConsent: null });

  const ready = (status: IdentityStatus) => client.setQueryData(key, status);

  /** Reads the status again (after finishing on the phone), keeping the page while it asks. */
  async function checkAgain() {
    const before = query.data?.verification.state;
    setChecking(true);
    setCheckNote(undefined);
    const { data } = await query.refetch();
    setChecking(false);
    if (data && stepOf(data) === 'verify' && data.verification.state === before) {
      setCheckNote('Nothing has come from your phone yet. Finish verifying there, then press “I finished on my phone” again.');
    }
  }

  const status = query.data;
  // A failed first read, or a link that no longer works: a failed read again later keeps the page (the next one may work).
  const readProblem = query.error ? problemOf(query.error, 'identity', contactEmail) : undefined;
  const problem = lost ?? (readProblem && (!status || readProblem.kind === 'link') ? readProblem : undefined);
  if (!token || !status || problem) {
    // Why there is nothing to show yet.
    return (
      <LinkState
        name="identity"
        token={token}
        loading="Loading your application…"
        pending={!status && !lost && (query.isFetching || !query.isError)}
        problem={problem}
        onRetry={() => {
          setLost(undefined);
          void query.refetch();
        }}
      />
    );
  }

  const step = stepOf(status);
  // How many answers the status query has had (the query's state counts them; its result does not).
  const reads = client.getQueryState(key)?.dataUpdateCount ?? 0;
  const view = verificationView(status.verification, !fromLink && reads <= RETURN_READS);
  const steps = ['Face data', 'Signature', 'Verify your ID'];
  const current = step === 'consent' ? (consentPart.part === 'face' ? 0 : 1) : step === 'verify' ? 2 : steps.length;
  return (
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
          onLinkLost={setLost}
        />
      )}
      {step === 'verify' && status.faceConsent === 'withdrawn' && <WithdrawnNote status={status} focus={justWithdrawn} />}
      {step === 'verify' && view !== 'verified' && (
        <VerifyStep
          api={api}
          token={token}
          status={status}
          view={view}
          contactEmail={contactEmail}
          onLinkLost={setLost}
          onCheckAgain={() => void checkAgain()}
          checking={checking}
          checkNote={checkNote}
        />
      )}
      {step === 'done' && <Done status={status} focusWithdrawal={justWithdrawn} />}
      {step !== 'consent' && view !== 'under-18' && status.faceConsent === 'given' && (
        <WithdrawFaceConsent
          api={api}
          token={token}
          status={status}
          contactEmail={contactEmail}
          onStatus={(next) => {
            setJustWithdrawn(true);
            ready(next);
          }}
          onLinkLost={setLost}
        />
      )}
    </>
  );
}

/** The end of the flow: what happens next, in the words of the last answer. */
function Done({ status, focusWithdrawal = false }: { status: IdentityStatus; focusWithdrawal?: boolean }) {
  const selfie = selfieMessage(status);
  const matched = status.selfie.state === 'match';
  return (
    <section className="card idv-step idv-done" aria-labelledby="idv-done-title" data-testid="identity-done">
      <StepHeading id="idv-done-title">{status.firstName ? `Thank you, ${status.firstName}` : 'Thank you'}</StepHeading>
      <div role="status">
        <p className="idv-result idv-result--match" data-testid="verification-result">
          Your ID is verified.
        </p>
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
        {status.faceConsent === 'withdrawn' && <WithdrawnNote status={status} focus={focusWithdrawal} />}
      </div>
      {status.state === 'awaiting-photos' ? (
        <p>Some of your photos cannot be used for training: we emailed you a link to replace them. The review starts once you have.</p>
      ) : (
        <p>We review applications within {REVIEW_TIME_TEXT}, and email you the decision. You can close this page.</p>
      )}
    </section>
  );
}

/** What withdrawing the face data consent did; focused when it was done on this page (the control that did it is gone). */
function WithdrawnNote({ status, focus }: { status: IdentityStatus; focus: boolean }) {
  const note = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focus) note.current?.focus();
  }, [focus]);
  return (
    <p ref={note} tabIndex={-1} className="idv-withdrawn" data-testid="face-consent-withdrawn">
      You withdrew your face data consent{status.faceConsentWithdrawnAt ? ` on ${longDate(status.faceConsentWithdrawnAt)}` : ''}. Your selfie
      and the face analyses of your photos are deleted, and nothing about your face is analysed again; a reviewer compares your photos by
      hand.
    </p>
  );
}
