import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { IdentityStatus } from '../../../../events/identity';
import { FieldError, TextField } from '../../components/FormField';
import type { IdentityApi } from './api';
import { placeFields, problemOf, type Problem } from './flow';
import { Alert, StepHeading } from './parts';

/** The consent request's fields this form shows beside its controls. */
const OWN_FIELDS = ['typedName', 'faceConsent', 'consentVersion'] as const;

const CHOICES = {
  yes: {
    label: 'I agree: check my photos and my selfie',
    detail:
      'Our software compares the faces in your photos with each other and with the selfie you take when you verify your ID with Stripe, to confirm every photo shows you.',
  },
  no: {
    label: 'No: review my photos by hand',
    detail: 'Nothing about your face is analysed by our software. You verify your ID with the document alone, without a selfie, and a reviewer compares your photos by hand.',
  },
} as const;

export const choiceLabel = (faceConsent: boolean) => CHOICES[faceConsent ? 'yes' : 'no'].label;

/**
 * The face data consent, asked first and on its own (nothing is pre-ticked), then the signature:
 * the consent text with its version and the applicant's typed full name.
 */
export function ConsentSteps({
  api,
  token,
  status,
  contactEmail,
  onPart,
  onSigned,
  onLinkLost,
}: {
  api: IdentityApi;
  token: string;
  status: IdentityStatus;
  contactEmail: string;
  /** Which part is shown, for the list of steps; and the face answer, which decides whether Stripe asks for a selfie. */
  onPart: (part: 'face' | 'sign', faceConsent: boolean | null) => void;
  onSigned: (next: IdentityStatus) => void;
  onLinkLost: (problem: Problem) => void;
}) {
  const [part, setPart] = useState<'face' | 'sign'>('face');
  const [faceConsent, setFaceConsent] = useState<boolean | null>(null);
  const [choiceError, setChoiceError] = useState<string>();
  const [typedName, setTypedName] = useState('');
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<{ byField: Record<string, string>; alert?: string }>({ byField: {} });
  /** Failures so far: each one's alert appears anew (and takes the focus). */
  const [failures, setFailures] = useState(0);

  const show = (next: 'face' | 'sign', answer = faceConsent) => {
    setPart(next);
    onPart(next, answer);
  };

  function chooseNext(e: FormEvent) {
    e.preventDefault();
    if (faceConsent === null) {
      setChoiceError('Choose one of the two answers to continue.');
      // On the first answer, where the question and its error are read.
      document.querySelector<HTMLInputElement>('input[name="face-consent"]')?.focus();
      return;
    }
    setChoiceError(undefined);
    setErrors({ byField: {} });
    show('sign');
  }

  async function sign(e: FormEvent) {
    e.preventDefault();
    if (faceConsent === null) return show('face');
    const name = typedName.trim();
    if (!name) {
      setErrors({ byField: { typedName: 'Type your full name to sign.' } });
      document.getElementById('idv-typed-name')?.focus();
      return;
    }
    setSending(true);
    setErrors({ byField: {} });
    try {
      onSigned(await api.consent({ token, faceConsent, typedName: name, consentVersion: status.consent.version }));
    } catch (err) {
      const problem = problemOf(err, 'identity', contactEmail);
      if (problem.kind === 'link') return onLinkLost(problem);
      const placed = placeFields(problem, OWN_FIELDS);
      setErrors({ byField: placed.byField, alert: placed.alert });
      setFailures((n) => n + 1);
      setSending(false);
    }
  }

  if (part === 'face') {
    return (
      <section className="card idv-step" aria-labelledby="idv-face-title" data-testid="face-consent-step">
        <StepHeading id="idv-face-title">Face data: your choice</StepHeading>
        <p>
          Before anything else: may we analyse the faces in your photos? Face data is biometric data, so we ask for it on its
          own, and you can say no.
        </p>
        <blockquote className="idv-text" data-testid="face-consent-text">
          <p>{status.consent.faceText}</p>
        </blockquote>
        <p className="idv-version">Face data consent, version {status.consent.faceVersion}</p>
        <form onSubmit={chooseNext} noValidate>
          <fieldset className="idv-choices" aria-describedby={choiceError ? 'idv-face-error' : undefined} aria-invalid={choiceError ? true : undefined}>
            <legend className="field__label">Your answer</legend>
            {(['yes', 'no'] as const).map((key) => (
              <label key={key} className="idv-choice">
                <input
                  type="radio"
                  name="face-consent"
                  value={key}
                  checked={faceConsent === (key === 'yes')}
                  onChange={() => {
                    setFaceConsent(key === 'yes');
                    setChoiceError(undefined);
                  }}
                  data-testid={`face-consent-${key}`}
                />
                <span>
                  <strong>{CHOICES[key].label}</strong>
                  <span className="idv-choice__detail">{CHOICES[key].detail}</span>
                </span>
              </label>
            ))}
            {choiceError && <FieldError id="idv-face-error" message={choiceError} />}
          </fieldset>
          <p className="idv-hint">
            How we handle your ID and face data: <Link to="/founding-talent-privacy#face-data">Privacy Policy, “ID verification and face data”</Link>.
          </p>
          <button type="submit" className="button button--primary" data-testid="face-consent-continue">
            Continue
          </button>
        </form>
      </section>
    );
  }

  return (
    <section className="card idv-step" aria-labelledby="idv-sign-title" data-testid="sign-step">
      <StepHeading id="idv-sign-title">Sign the consent</StepHeading>
      {errors.alert && <Alert key={failures}>{errors.alert}</Alert>}
      <p className="idv-answer">
        Your answer on face data: <strong>{faceConsent !== null && choiceLabel(faceConsent)}</strong>{' '}
        <button type="button" className="idv-link-button" onClick={() => show('face')} disabled={sending}>
          Change
        </button>
      </p>
      {errors.byField.faceConsent && <FieldError id="idv-face-consent-error" message={errors.byField.faceConsent} />}
      <blockquote className="idv-text" data-testid="consent-text">
        <p>{status.consent.text}</p>
      </blockquote>
      <p className="idv-version" data-testid="consent-version">
        Consent text, version {status.consent.version}
      </p>
      {errors.byField.consentVersion && (
        <div className="idv-field-problem">
          <FieldError id="idv-version-error" message={errors.byField.consentVersion} />
          <button type="button" className="button button--secondary" onClick={() => window.location.reload()}>
            Load the current text
          </button>
        </div>
      )}
      <form onSubmit={sign} noValidate>
        <TextField
          id="idv-typed-name"
          name="typedName"
          label="Your full name"
          hint="The name you applied with. Typing it signs the text above."
          autoComplete="name"
          maxLength={200}
          required
          value={typedName}
          onValueChange={setTypedName}
          error={errors.byField.typedName}
          disabled={sending}
          data-testid="typed-name"
        />
        <button type="submit" className="button button--primary" disabled={sending} data-testid="sign-button">
          {sending ? 'Signing…' : 'Sign'}
        </button>
      </form>
    </section>
  );
}
