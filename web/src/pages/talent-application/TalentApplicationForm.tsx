import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { BRAND_NAME } from '../../brand';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import { ApplicationAlert, PhotoPicker, SubmissionProgress } from '../../lib/application/PhotoPicker';
import { loadMachinery, useApplicationUpload } from '../../lib/application/useApplicationUpload';
import { FieldError, TextField } from '../../components/FormField';
import { ExcludedIndustriesFieldset } from '../../components/application/ExcludedIndustries';
import '../../components/application/ApplicationForm.css';
import {
  EMPTY_TALENT_APPLICATION,
  MIN_AGE,
  REVIEW_TIME,
  TALENT_APPLICATION_MESSAGES,
  VALIDATED_FIELDS,
  validateTalentApplication,
  type TalentApplicationErrors,
  type TalentApplicationField,
  type TalentApplicationValues,
} from './talentApplication';

const IDS = {
  name: 'ta-name',
  email: 'ta-email',
  phone: 'ta-phone',
  age: 'ta-age',
  location: 'ta-location',
  experience: 'ta-experience',
  why: 'ta-why',
  consent: 'ta-consent',
  terms: 'ta-terms',
} as const;

type TextField = 'name' | 'email' | 'phone' | 'age' | 'location' | 'experience' | 'why';

/**
 * The talent application form (docs/product.md#talent-application): the consent and age rules of this
 * page, then the same pipeline as the founding form with program 'standard': 30-80 photos
 * uploaded straight to storage and the signup, ending on 'Application Submitted!'.
 */
export function TalentApplicationForm() {
  const { apiUrl } = useConfig();
  const upload = useApplicationUpload(apiUrl);
  const [values, setValues] = useState<TalentApplicationValues>(EMPTY_TALENT_APPLICATION);
  const [errors, setErrors] = useState<TalentApplicationErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | undefined>();
  const busy = upload.stage !== null;
  const email = values.email.trim().toLowerCase();
  const confirmationRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (submitted) confirmationRef.current?.focus();
  }, [submitted]);
  function clearError(field: TalentApplicationField) {
    if (errors[field]) setErrors(({ [field]: _removed, ...rest }) => rest);
  }

  function setText(field: TextField, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    if (field !== 'phone' && field !== 'experience') clearError(field);
  }

  function handleAgeBlur() {
    // An under-age entry is flagged as soon as the person leaves the field.
    const n = Number(values.age.trim());
    if (values.age.trim() !== '' && Number.isFinite(n) && n > 0 && n < MIN_AGE) {
      setErrors((e) => ({ ...e, age: TALENT_APPLICATION_MESSAGES.underAge }));
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!values.consent || busy) return; // the button is disabled; Enter in a field is silently blocked too
    const found = validateTalentApplication(values);
    setErrors(found);
    const first = VALIDATED_FIELDS.find((f) => found[f]);
    if (first) {
      setAlert(null);
      document.getElementById(IDS[first])?.focus();
      return;
    }
    let m: Awaited<ReturnType<typeof loadMachinery>>;
    try {
      m = await loadMachinery();
    } catch {
      setAlert('There was an error submitting your application: Please try again later.');
      return;
    }
    const photoAlert = m.photoCountAlert(upload.photos);
    setAlert(photoAlert);
    if (photoAlert) return;
    const outcome = await upload.submit(email, m.standardSignup(values, values.excludedIndustries, upload.photos.length));
    if (!outcome.ok) {
      setAlert(outcome.alert);
      return;
    }
    upload.finish();
    setNotice(outcome.notice);
    setSubmitted(true);
  }

  async function retry(photoId: string) {
    setAlert((await upload.retry(photoId, email)) ?? null);
  }

  if (submitted) {
    return (
      <div className="card app-form form-success" role="status" data-testid="talent-application-success">
        <span className="badge-circle form-success__icon" aria-hidden="true">
          <Icon name="check" size={32} />
        </span>
        <h2 ref={confirmationRef} tabIndex={-1}>
          Application Submitted!
        </h2>
        <p>
          Thank you, {values.name.trim()}. Please confirm your address with the link we sent to{' '}
          <strong>{values.email.trim()}</strong>: we review confirmed applications within {REVIEW_TIME}.
        </p>
        {notice && <p className="app-form__notice">{notice}</p>}
      </div>
    );
  }

  const errorCount = Object.keys(errors).length;

  return (
    <form className="card app-form" noValidate onSubmit={handleSubmit} aria-labelledby="ta-form-title" data-testid="talent-application-form">
      <h2 id="ta-form-title" className="app-form__title">
        Apply to become talent
      </h2>
      <p className="app-form__intro">
        It takes about five minutes. Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with an asterisk</span> are required.
      </p>
      <p className="sr-only" role="alert">
        {errorCount > 0 ? `Please correct ${errorCount === 1 ? 'the highlighted field' : `${errorCount} highlighted fields`}.` : ''}
      </p>

      <fieldset className="app-form__group" disabled={busy}>
        <legend className="app-form__legend">About you</legend>
        <TextField id={IDS.name} label="Full name" required error={errors.name} name="name" autoComplete="name" value={values.name} onValueChange={(v) => setText('name', v)} />
        <div className="field-row">
          <TextField id={IDS.email} label="Email" required error={errors.email} name="email" type="email" inputMode="email" autoComplete="email" placeholder="you@example.com" value={values.email} onValueChange={(v) => setText('email', v)} />
          <TextField id={IDS.phone} label="Phone" optional name="phone" type="tel" autoComplete="tel" value={values.phone} onValueChange={(v) => setText('phone', v)} />
        </div>
        <div className="field-row">
          <TextField
            id={IDS.age}
            label="Age"
            required
            error={errors.age}
            hint={`You must be ${MIN_AGE} or older.`}
            name="age"
            type="number"
            inputMode="numeric"
            min={MIN_AGE}
            max={120}
            step={1}
            value={values.age}
            onValueChange={(v) => setText('age', v)}
            onBlur={handleAgeBlur}
          />
          <TextField
            id={IDS.location}
            label="Location"
            required
            error={errors.location}
            name="location"
            autoComplete="address-level2"
            placeholder="City, Country"
            value={values.location}
            onValueChange={(v) => setText('location', v)}
          />
        </div>
        <TextField
          id={IDS.experience}
          label="Tell us about yourself"
          optional
          hint="Modelling, acting or content work, your style, anything you want us to know."
          name="experience"
          rows={4}
          value={values.experience}
          onValueChange={(v) => setText('experience', v)}
        />
        <TextField id={IDS.why} label="Why do you want to join?" required error={errors.why} name="why" rows={4} value={values.why} onValueChange={(v) => setText('why', v)} />
      </fieldset>

      <ExcludedIndustriesFieldset
        idPrefix="ta"
        value={values.excludedIndustries}
        onChange={(excludedIndustries) => setValues((v) => ({ ...v, excludedIndustries }))}
        disabled={busy}
      />

      <fieldset className="app-form__group">
        <legend className="app-form__legend">Training photos</legend>
        <PhotoPicker id="ta-photos" upload={upload} onRetry={retry} />
        <p className="field__hint">
          Not sure what to send? Read our <Link to="/training-image-best-practices">training image best practices</Link>.
        </p>
      </fieldset>

      <div className="app-form__agreements">
        <div className="checkbox">
          <input
            id={IDS.consent}
            name="consent"
            type="checkbox"
            aria-required="true"
            checked={values.consent}
            onChange={(e) => setValues((v) => ({ ...v, consent: e.target.checked }))}
          />
          <label htmlFor={IDS.consent}>
            I consent to {BRAND_NAME} using my photos to review my application and, if I am accepted, to train an AI model of
            my likeness. I can withdraw this consent at any time.
          </label>
        </div>
        <div className={`checkbox${errors.terms ? ' checkbox--invalid' : ''}`}>
          <input
            id={IDS.terms}
            name="terms"
            type="checkbox"
            aria-required="true"
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? `${IDS.terms}-error` : undefined}
            checked={values.terms}
            onChange={(e) => {
              setValues((v) => ({ ...v, terms: e.target.checked }));
              clearError('terms');
            }}
          />
          <label htmlFor={IDS.terms}>
            I agree to the <Link to="/terms">Terms of Service</Link> and <Link to="/privacy">Privacy Policy</Link>.
          </label>
        </div>
        {errors.terms && <FieldError id={`${IDS.terms}-error`} message={errors.terms} />}
      </div>

      <ApplicationAlert message={alert} onDismiss={() => setAlert(null)} />

      <button
        type="submit"
        className="button button--primary button--block app-form__submit"
        disabled={!values.consent || busy}
        data-testid="talent-application-submit"
        aria-describedby={values.consent ? undefined : 'ta-submit-hint'}
      >
        {busy ? 'Submitting...' : 'Submit Application'}
      </button>
      {!values.consent && (
        <p id="ta-submit-hint" className="app-form__submit-hint">
          Tick the consent box to submit your application.
        </p>
      )}
      <SubmissionProgress upload={upload} />
    </form>
  );
}
