import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LIMITS } from '../../lib/application/limits';
import { useConfig } from '../../config';
import { ApplicationAlert, PhotoPicker, SubmissionProgress } from '../../lib/application/PhotoPicker';
import { loadMachinery, useApplicationUpload } from '../../lib/application/useApplicationUpload';
import { TextField } from '../../components/FormField';
import { ExcludedIndustriesFieldset, type ExcludedIndustries } from '../../components/application/ExcludedIndustries';
import '../../components/application/ApplicationForm.css';

/** Pause on the finished dialog before the thank-you page. */
const REDIRECT_DELAY_MS = 1000;

type FieldName = 'firstName' | 'lastName' | 'email' | 'phone' | 'age' | 'location' | 'experience' | 'portfolio' | 'motivation';
type Values = Record<FieldName, string>;
type Errors = Partial<Record<FieldName, string>>;

const EMPTY: Values = { firstName: '', lastName: '', email: '', phone: '', age: '', location: '', experience: '', portfolio: '', motivation: '' };
/** Checked by the machinery (FOUNDING_REQUIRED there), in this order, to focus the first. */
const ORDER: readonly FieldName[] = ['firstName', 'lastName', 'email', 'age', 'location', 'experience'];
const id = (field: string) => `fa-${field}`;

/**
 * The founding talent application form (docs/product.md#founding): details, excluded
 * industries, 30-80 training photos uploaded straight to storage, then the signup. Every
 * failure shows its alert in the page; success pauses a second, then thanks the applicant.
 */
export function FoundingApplicationForm() {
  const { apiUrl } = useConfig();
  const navigate = useNavigate();
  const upload = useApplicationUpload(apiUrl);
  const [values, setValues] = useState<Values>(EMPTY);
  const [excluded, setExcluded] = useState<ExcludedIndustries>({ religion: false, politics: false, alcohol: false });
  const [terms, setTerms] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [alert, setAlert] = useState<string | null>(null);
  const busy = upload.stage !== null;
  const email = values.email.trim().toLowerCase();

  function set(field: FieldName, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    let m: Awaited<ReturnType<typeof loadMachinery>>;
    try {
      m = await loadMachinery();
    } catch {
      setAlert('There was an error submitting your application: Please try again later.');
      return;
    }
    const check = m.checkFoundingApplication({ terms, email, values, photos: upload.photos });
    setErrors(check.fields);
    setAlert(check.alert);
    const first = ORDER.find((f) => check.fields[f]);
    if (first) document.getElementById(id(first))?.focus();
    if (first || check.alert) return;
    const outcome = await upload.submit(email, m.foundingSignup(values, excluded, upload.photos.length));
    if (!outcome.ok) {
      setAlert(outcome.alert);
      return;
    }
    await new Promise((resolve) => window.setTimeout(resolve, REDIRECT_DELAY_MS));
    upload.finish();
    await navigate('/thank-you?type=founding-model', { state: { notice: outcome.notice } });
  }

  async function retry(photoId: string) {
    setAlert((await upload.retry(photoId, email)) ?? null);
  }

  const text = (field: FieldName, label: string, extra: { required?: boolean; optional?: boolean; hint?: string; type?: string; autoComplete?: string; placeholder?: string; multiline?: boolean }) => (
    <TextField
      id={id(field)}
      label={label}
      required={extra.required}
      optional={extra.optional}
      hint={extra.hint}
      error={errors[field]}
      name={field}
      rows={extra.multiline ? 4 : undefined}
      type={extra.type}
      autoComplete={extra.autoComplete}
      placeholder={extra.placeholder}
      maxLength={extra.multiline ? 5000 : field === 'portfolio' ? 2000 : 254}
      {...(field === 'age' ? { min: LIMITS.minAge, max: 130, step: 1, inputMode: 'numeric' as const } : {})}
      value={values[field]}
      onValueChange={(v) => set(field, v)}
    />
  );

  return (
    <form id="signup-form" className="card app-form founding-form" noValidate onSubmit={handleSubmit} aria-labelledby="fa-form-title" data-testid="founding-form">
      <h2 id="fa-form-title" className="app-form__title">
        Apply for a founding spot
      </h2>
      <p className="app-form__intro">
        Free to apply, about ten minutes with your photos ready. Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with an asterisk</span> are required.
      </p>

      <fieldset className="app-form__group" disabled={busy}>
        <legend className="app-form__legend">About you</legend>
        <div className="field-row">
          {text('firstName', 'First name', { required: true, autoComplete: 'given-name' })}
          {text('lastName', 'Last name', { required: true, autoComplete: 'family-name' })}
        </div>
        <div className="field-row">
          {text('email', 'Email', { required: true, type: 'email', autoComplete: 'email', placeholder: 'you@example.com' })}
          {text('phone', 'Phone', { optional: true, type: 'tel', autoComplete: 'tel' })}
        </div>
        <div className="field-row">
          {text('age', 'Age', { required: true, type: 'number', hint: `You must be ${LIMITS.minAge} or older.` })}
          {text('location', 'Location', { required: true, autoComplete: 'address-level2', placeholder: 'City, Country' })}
        </div>
        {text('experience', 'Tell us about yourself', {
          required: true,
          multiline: true,
          hint: 'Modelling, acting or content work, your style, anything you want us to know.',
        })}
        {text('portfolio', 'Portfolio or social links', { optional: true, placeholder: 'instagram.com/you, yoursite.com' })}
        {text('motivation', 'Why do you want to be founding talent?', { optional: true, multiline: true })}
      </fieldset>

      <ExcludedIndustriesFieldset idPrefix="fa" value={excluded} onChange={setExcluded} disabled={busy} />

      <fieldset className="app-form__group">
        <legend className="app-form__legend">Training photos</legend>
        <PhotoPicker id="fa-photos" upload={upload} onRetry={retry} />
        <p className="field__hint">
          Send {LIMITS.minImages}-{LIMITS.maxImages} clear photos of you alone: varied angles, light and
          expressions. Read the <Link to="/training-image-best-practices-founders">photo guide for founders</Link>.
        </p>
      </fieldset>

      <div className="checkbox app-form__agreements">
        <input id={id('terms')} name="terms" type="checkbox" aria-required="true" checked={terms} disabled={busy} onChange={(e) => setTerms(e.target.checked)} />
        <label htmlFor={id('terms')}>
          I agree to the <Link to="/founding-talent-terms">Terms of Service</Link> and{' '}
          <Link to="/founding-talent-privacy">Privacy Policy</Link>, and I consent to my photos being used to review my
          application and, if I am accepted, to train an AI model of my likeness.
        </label>
      </div>

      <ApplicationAlert message={alert} onDismiss={() => setAlert(null)} />

      <button
        type="submit"
        className="button button--primary button--block app-form__submit"
        // Unticked terms: announced and styled as disabled, yet Enter or a click still explains why.
        aria-disabled={!terms || busy}
        disabled={busy}
        aria-describedby={terms ? undefined : 'fa-submit-hint'}
        data-testid="founding-submit"
      >
        {busy ? 'Submitting...' : 'Submit Application'}
      </button>
      {!terms && (
        <p id="fa-submit-hint" className="app-form__submit-hint">
          Tick the agreement to submit your application.
        </p>
      )}
      <SubmissionProgress upload={upload} />
    </form>
  );
}

