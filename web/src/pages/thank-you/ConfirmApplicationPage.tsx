import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CONFIRMATION_MESSAGES, FOUNDING_MESSAGES, REVIEW_TIME_TEXT } from '../../../../events/founding-values';
import type { FoundingConfirmResponse } from '../../../../events/founding';
import { ApiError, postJson } from '../../api/client';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';

type State = { step: 'ready' | 'sending' } | { step: 'done'; message: string } | { step: 'failed'; message: string };

/**
 * Where the confirmation continues: the face data consent, the signature and the ID verification
 * (docs/identity.md). The identity token goes in the fragment, which never reaches a server log.
 */
const identityPath = (identityToken: string) => `/founding/identity#token=${encodeURIComponent(identityToken)}`;

/**
 * /thank-you?type=founding-confirm#token=... (docs/product.md#founding-confirmation): the page
 * the confirmation email links to. Opening it changes nothing (mail scanners open links); the
 * applicant's click on the button posts the token, and the application is submitted. The first
 * confirmation's answer carries an identity token: the page then goes on to /founding/identity,
 * taking the confirmation's message along (router state) and leaving this page out of the history.
 */
export function ConfirmApplicationPage() {
  usePageTitle('Confirm your email address');
  const { apiUrl } = useConfig();
  const [state, setState] = useState<State>({ step: 'ready' });
  const navigate = useNavigate();

  async function confirm() {
    // The token is in the fragment (#token=...), so it never reaches a server log.
    const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
    if (!token) {
      setState({ step: 'failed', message: CONFIRMATION_MESSAGES.invalidLink });
      return;
    }
    setState({ step: 'sending' });
    try {
      const answer = await postJson<FoundingConfirmResponse>(apiUrl, '/founding-confirm', { token });
      if (answer.identityToken) {
        await navigate(identityPath(answer.identityToken), { replace: true, state: { confirmed: answer.message } });
        return;
      }
      setState({ step: 'done', message: answer.message });
    } catch (err) {
      const message = err instanceof ApiError && err.serverError ? err.serverError : FOUNDING_MESSAGES.defaultAlert;
      setState({ step: 'failed', message: message === FOUNDING_MESSAGES.alreadyExists ? FOUNDING_MESSAGES.duplicateAlert : message });
    }
  }

  return (
    <div className="container ty">
      <header className="ty-hero">
        <h1>Confirm your email address</h1>
        {state.step === 'done' ? (
          <p className="lead" role="status" data-testid="confirm-result">
            {state.message} We review applications within {REVIEW_TIME_TEXT}.
          </p>
        ) : (
          <>
            <p className="lead">Your application counts once you confirm that this email address is yours.</p>
            <button type="button" className="button button--primary" onClick={confirm} disabled={state.step === 'sending'} data-testid="confirm-button">
              {state.step === 'sending' ? 'Confirming…' : 'Confirm my email address'}
            </button>
          </>
        )}
        {state.step === 'failed' && (
          <p className="ty-notice" role="alert" data-testid="confirm-error">
            {state.message}
          </p>
        )}
      </header>
      <p>
        <Link to="/founding-talent-application">Back to the founding application</Link>
      </p>
    </div>
  );
}
