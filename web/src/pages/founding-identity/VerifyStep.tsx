import { useState } from 'react';
import { Link } from 'react-router';
import { UNDER_18_MESSAGE, type IdentityStatus } from '../../../../events/identity';
import type { IdentityApi } from './api';
import { problemOf, triesLeftText, verificationProblem, verifiesWithSelfie, type Problem, type VerificationView } from './flow';
import { PhoneHandoff } from './PhoneHandoff';
import { Alert, StepHeading } from './parts';

const TITLES: Record<Exclude<VerificationView, 'verified'>, string> = {
  start: 'Verify your ID',
  unfinished: 'Finish verifying your ID',
  returning: 'Checking your ID',
  processing: 'Checking your ID',
  failed: 'Your ID could not be verified',
  'none-left': 'We could not verify your ID',
  'under-18': 'We cannot take your application',
};

/**
 * The ID verification (decision 056): what happens on Stripe's page and what we keep, the button
 * that opens the applicant's verification and sends the browser to Stripe, and, on the way back,
 * where it stands: being checked (the page reads again by itself), not gone through with Stripe's
 * reason and another try, no try left, or under 18. A phone can take over through the QR code.
 */
export function VerifyStep({
  api,
  token,
  status,
  view,
  contactEmail,
  onLinkLost,
  onCheckAgain,
  checking,
  checkNote,
}: {
  api: Pick<IdentityApi, 'verification'>;
  token: string;
  status: IdentityStatus;
  view: Exclude<VerificationView, 'verified'>;
  contactEmail: string;
  onLinkLost: (problem: Problem) => void;
  onCheckAgain: () => void;
  checking: boolean;
  /** What the last "I finished on my phone" found, when nothing had changed. */
  checkNote?: string;
}) {
  const [opening, setOpening] = useState(false);
  const [failure, setFailure] = useState<{ text: string; n: number }>();
  const [handoff, setHandoff] = useState(false);
  const withSelfie = verifiesWithSelfie(status);

  async function open() {
    setOpening(true);
    setFailure(undefined);
    try {
      const { url } = await api.verification(token);
      // Stripe's page, in this tab: it sends the applicant back to /founding/identity, where the token kept for this tab is read.
      window.location.assign(url);
    } catch (err) {
      const problem = problemOf(err, 'identity', contactEmail);
      if (problem.kind === 'link') return onLinkLost(problem);
      setFailure((last) => ({ text: problem.text, n: (last?.n ?? 0) + 1 }));
      setOpening(false);
    }
  }

  const button = (label: string) => (
    <div className="idv-actions">
      <button type="button" className="button button--primary" onClick={open} disabled={opening} aria-describedby="idv-verify-where" data-testid="verify-button">
        {opening ? 'Opening Stripe…' : label}
      </button>
      <p className="idv-hint" id="idv-verify-where">
        Stripe’s page opens in this tab and brings you back here when you are done.
      </p>
    </div>
  );

  const offerPhone = view === 'start' || view === 'unfinished' || view === 'failed';
  // One heading while the result is on its way and while Stripe checks: the focus stays on it.
  const titleId = `idv-verify-${view === 'returning' ? 'processing' : view}`;

  return (
    <section className="card idv-step" aria-labelledby={titleId} data-testid="verify-step" data-view={view}>
      <StepHeading id={titleId}>{TITLES[view]}</StepHeading>
      {failure && <Alert key={failure.n}>{failure.text}</Alert>}

      {view === 'start' && (
        <>
          <p>
            The last step: show that you are who you say you are, and an adult. Stripe, the company that also handles our payments,
            checks your ID for us on its own secure page.
          </p>
          <ol className="idv-how">
            <li>Have your passport, national ID card or driving licence at hand.</li>
            <li>On Stripe’s page, take a photo of it with your phone or your computer’s camera{withSelfie ? ', then a selfie' : ''}.</li>
            <li>
              Stripe checks the document{withSelfie ? ', and that the selfie is you, live, and the person on it' : ''}. It takes a
              few minutes, then you come back here.
            </li>
          </ol>
          <WhatWeKeep withSelfie={withSelfie} />
          {button('Verify my ID with Stripe')}
        </>
      )}

      {view === 'unfinished' && (
        <>
          <p>You started verifying your ID with Stripe and did not finish. Continue where you left off: it takes a few minutes.</p>
          <WhatWeKeep withSelfie={withSelfie} />
          {button('Continue verifying')}
        </>
      )}

      {(view === 'returning' || view === 'processing') && (
        <div className="idv-progress" data-testid="verification-progress">
          <progress aria-labelledby="idv-checking-text" />
          <p id="idv-checking-text" role="status">
            {view === 'returning' ? 'Getting the result from Stripe…' : 'Stripe is checking your ID. This usually takes a minute or two.'}
          </p>
          <p className="idv-hint">This page updates by itself: you can leave it open, or close it and come back with the link from your email.</p>
        </div>
      )}

      {view === 'failed' && (
        <>
          <p className="idv-result idv-result--retake" role="status" data-testid="verification-problem">
            {verificationProblem(status.verification)}
          </p>
          <p>{triesLeftText(status.verification.sessionsLeft)}</p>
          {button('Try again')}
        </>
      )}

      {view === 'none-left' && (
        // Not the last answer's text: it asks for another try, and none is left.
        <p role="status" data-testid="verification-problem">
          Stripe could not verify your ID, and you have used every try we can offer online. Write to{' '}
          <a href={`mailto:${contactEmail}`}>{contactEmail}</a> with your name and the email address you applied with: a person will help
          you finish your application.
        </p>
      )}

      {view === 'under-18' && (
        <p role="status" data-testid="under-18">
          {UNDER_18_MESSAGE}
        </p>
      )}

      {offerPhone &&
        (handoff ? (
          <PhoneHandoff token={token} focusOnOpen checking={checking} note={checkNote} onCheckAgain={onCheckAgain} />
        ) : (
          <p className="idv-handoff-offer">
            No camera on this computer?{' '}
            <button type="button" className="idv-link-button" onClick={() => setHandoff(true)} data-testid="open-handoff">
              Continue on your phone
            </button>
          </p>
        ))}
    </section>
  );
}

/** What we keep of the verification, and what we never keep (decision 056). */
function WhatWeKeep({ withSelfie }: { withSelfie: boolean }) {
  return (
    <section className="idv-keep" aria-labelledby="idv-keep-title">
      <h3 id="idv-keep-title" className="idv-keep__title">
        What we keep
      </h3>
      <ul>
        <li>Your name as it is on the ID, to compare with the name you applied with.</li>
        <li>That you are 18 or older on the day of the check, not your date of birth.</li>
        {withSelfie && <li>Whether your selfie matches your photos. Its face data is deleted with your photos.</li>}
      </ul>
      <p>
        We never keep the pictures of your ID or its number. Stripe holds them, and we have Stripe delete them if your application is
        not accepted or you ask us to erase your data. More in our <Link to="/founding-talent-privacy#face-data">Privacy Policy</Link>.
      </p>
    </section>
  );
}
