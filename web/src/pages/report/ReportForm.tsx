import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ReportCreated } from '../../../../events/reports';
import {
  GOOD_FAITH_STATEMENT,
  NOT_CONSENSUAL_STATEMENT,
  REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  REPORT_LIMITS,
  REPORT_LOCATION_MESSAGE,
  REPORTER_ROLES,
  REPORTER_ROLE_LABELS,
  type ReportCategory,
} from '../../../../events/report-values';
import { FieldError, TextField } from '../../components/FormField';
import { Icon } from '../../components/Icon';
import { errorText } from '../../lib/errorText';
import type { ReportApi, ReportFieldsError } from '../../lib/report-api';
import { ReportFiles } from './ReportFiles';
import { asksDepictedPerson, fieldOrder, isIntimate, type ReportDraft, type ReportErrors, type ReportField } from './report-draft';

/* The checks load with the first send, not with the page (decision 014's JavaScript budget). */
const loadChecks = () => import('./report-checks');

/** What each category covers, under its label. */
const CATEGORY_HINTS: Record<ReportCategory, string> = {
  'likeness-without-license': 'Someone’s face or likeness in an image they never licensed.',
  'outside-license': 'An image licensed here, used in a way its license does not allow.',
  'excluded-industry': 'Used for alcohol, politics, religion or another industry the person shown refused.',
  intimate: 'Nude, sexual or intimate images made or shared without consent, AI-made ones included. Reviewed within 48 hours.',
  defamatory: 'The image shows someone saying or doing something false or damaging.',
  copyright: 'The image copies a work whose rights you hold.',
  other: 'Anything else we should look at.',
};

/** The id of the control each field's error points to (the first radio of a group). */
function controlId(field: ReportField): string {
  if (field === 'category') return `report-category-${REPORT_CATEGORIES[0]}`;
  if (field === 'reporterRole') return `report-role-${REPORTER_ROLES[0]}`;
  return `report-${field}`;
}

/** Errors without `field`'s, and without the "at least one location" error once a location is given. */
function withoutLocationError(errors: ReportErrors, field: ReportField, located: boolean): ReportErrors {
  const next = { ...errors };
  delete next[field];
  if (located && next['url-0'] === REPORT_LOCATION_MESSAGE) delete next['url-0'];
  return next;
}

/** A 400 that named fields (the API's module loads later, so its class is not at hand to test with). */
const namesFields = (err: unknown): err is ReportFieldsError => err instanceof Error && err.name === 'ReportFieldsError';

/** A fresh key per report, so a retried send is the same report. */
function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** The report form: its sections, its checks, and the server's answer to each field. */
export function ReportForm({
  api,
  draft,
  setDraft,
  licenseId,
  contactEmail,
  onSent,
}: {
  api: ReportApi;
  draft: ReportDraft;
  setDraft: (update: (draft: ReportDraft) => ReportDraft) => void;
  licenseId?: string;
  contactEmail: string;
  onSent: (created: ReportCreated, draft: ReportDraft) => void;
}) {
  const [errors, setErrors] = useState<ReportErrors>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string>();
  // One key per draft sent: the same report when a send is retried, a new one after any change.
  const key = useRef<string>(undefined);

  function update<K extends keyof ReportDraft>(field: K, value: ReportDraft[K], clears: ReportField[] = []) {
    key.current = undefined;
    setDraft((d) => ({ ...d, [field]: value }));
    if (clears.some((f) => errors[f])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !clears.includes(k as ReportField))));
  }

  function setUrl(index: number, value: string) {
    key.current = undefined;
    setDraft((d) => ({ ...d, urls: d.urls.map((u, i) => (i === index ? value : u)) }));
    setErrors((e) => withoutLocationError(e, `url-${index}`, value.trim() !== ''));
  }

  function show(found: ReportErrors) {
    setErrors(found);
    const first = fieldOrder(draft.urls.length).find((f) => found[f]);
    if (first) document.getElementById(controlId(first))?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    setFailure(undefined);
    setSending(true);
    let checks: Awaited<ReturnType<typeof loadChecks>>;
    try {
      checks = await loadChecks();
    } catch {
      setSending(false);
      return setFailure(`The form could not load all its parts. Check your connection and try again, or write to ${contactEmail}.`);
    }
    const found = checks.validateReport(draft);
    if (Object.keys(found).length > 0) {
      setSending(false);
      return show(found);
    }
    setErrors({});
    key.current ??= newKey();
    try {
      const created = await api.send(checks.reportRequest(draft), key.current);
      onSent(created, draft);
    } catch (err) {
      if (namesFields(err)) show(checks.serverErrors(err.fields, draft));
      else setFailure(errorText(err, `The report could not be sent. Try again in a moment, or write to ${contactEmail}.`));
    } finally {
      setSending(false);
    }
  }

  const errorCount = Object.keys(errors).length;
  const intimate = isIntimate(draft);

  return (
    <form className="card form-card report-form" noValidate onSubmit={(e) => void submit(e)} aria-labelledby="report-form-title" data-testid="report-form">
      <h2 id="report-form-title" className="form-card__title">
        Your report
      </h2>
      <p className="form-card__intro">
        <span aria-hidden="true">*</span> Required. Everything you write goes to our review team only.
      </p>
      {licenseId && (
        <p className="report-form__license" data-testid="report-license">
          <Icon name="license" size={18} />
          <span>
            About license <strong className="report-match__id">{licenseId}</strong>. Add where you saw the image below.
          </span>
        </p>
      )}
      <p className="sr-only" role="alert">
        {errorCount > 0 ? `Please correct ${errorCount === 1 ? 'the highlighted field' : `${errorCount} highlighted fields`}.` : ''}
      </p>

      <Section step={1} title="What is wrong?">
        <RadioGroup
          name="category"
          legend="What is wrong with the image?"
          error={errors.category}
          options={REPORT_CATEGORIES.map((c) => ({ value: c, label: REPORT_CATEGORY_LABELS[c], hint: CATEGORY_HINTS[c], id: `report-category-${c}` }))}
          value={draft.category}
          onChange={(v) => update('category', v, ['category', 'consentDenied', 'depictedPerson'])}
        />
      </Section>

      <Section step={2} title="Where is it?" hint="The address of the page or the image, the file itself, or both. We need at least one.">
        <div className="report-urls">
          {draft.urls.map((url, i) => (
            <div key={i} className="report-url">
              <TextField
                id={`report-url-${i}`}
                label={i === 0 ? 'Web address (URL)' : `Web address ${i + 1}`}
                error={errors[`url-${i}`]}
                name={`url-${i}`}
                type="url"
                inputMode="url"
                autoComplete="off"
                placeholder="https://example.com/page-with-the-image"
                maxLength={REPORT_LIMITS.url}
                value={url}
                onValueChange={(v) => setUrl(i, v)}
                data-testid="report-url"
              />
              {i > 0 && (
                <button
                  type="button"
                  className="button button--ghost report-url__remove"
                  aria-label={`Remove web address ${i + 1}`}
                  onClick={() => {
                    update(
                      'urls',
                      draft.urls.filter((_, j) => j !== i),
                      [],
                    );
                    setErrors({});
                    document.getElementById(`report-url-${i - 1}`)?.focus();
                  }}
                >
                  Remove
                </button>
              )}
            </div>
          ))}
          {draft.urls.length < REPORT_LIMITS.urls && (
            <button
              type="button"
              className="button button--ghost report-urls__add"
              onClick={() => {
                update('urls', [...draft.urls, '']);
                requestAnimationFrame(() => document.getElementById(`report-url-${draft.urls.length}`)?.focus());
              }}
            >
              + Add another address
            </button>
          )}
        </div>
        <ReportFiles
          id="report-files"
          api={api}
          files={draft.files}
          error={errors.files}
          onChange={(change) => {
            key.current = undefined;
            setDraft((d) => ({ ...d, files: change(d.files) }));
            setErrors((e) => withoutLocationError(e, 'files', true));
          }}
        />
      </Section>

      <Section step={3} title="What happened?">
        <TextField
          id="report-explanation"
          label="Explain what is wrong and why"
          required
          error={errors.explanation}
          hint="Who is shown, how the image is used, and why it should not be. The more precise, the faster we can act."
          aside={<Counter value={draft.explanation} max={REPORT_LIMITS.explanation} />}
          name="explanation"
          rows={6}
          value={draft.explanation}
          onValueChange={(v) => update('explanation', v, ['explanation'])}
        />
      </Section>

      <Section step={4} title="About you">
        <RadioGroup
          name="reporterRole"
          legend="Who is reporting?"
          error={errors.reporterRole}
          options={REPORTER_ROLES.map((r) => ({ value: r, label: REPORTER_ROLE_LABELS[r], id: `report-role-${r}` }))}
          value={draft.reporterRole}
          onChange={(v) => update('reporterRole', v, ['reporterRole', 'depictedPerson'])}
          compact
        />
        <div className="field-row">
          <TextField id="report-name" label="Your full name" required error={errors.name} name="name" autoComplete="name" maxLength={REPORT_LIMITS.name} value={draft.name} onValueChange={(v) => update('name', v, ['name'])} />
          <TextField
            id="report-email"
            label="Your email"
            required
            error={errors.email}
            hint="For your reference number and our decision."
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="you@example.com"
            maxLength={REPORT_LIMITS.email}
            value={draft.email}
            onValueChange={(v) => update('email', v, ['email'])}
          />
        </div>
        {asksDepictedPerson(draft) && (
          <TextField
            id="report-depictedPerson"
            label="Who is shown in the image?"
            required
            error={errors.depictedPerson}
            hint="Their name, and anything else that lets us identify them. The law asks for it on intimate-image reports."
            name="depictedPerson"
            maxLength={REPORT_LIMITS.depictedPerson}
            value={draft.depictedPerson}
            onValueChange={(v) => update('depictedPerson', v, ['depictedPerson'])}
          />
        )}
      </Section>

      <Section step={5} title="Your statements">
        {intimate && (
          <Statement
            id="report-consentDenied"
            checked={draft.consentDenied}
            onChange={(v) => update('consentDenied', v, ['consentDenied'])}
            error={errors.consentDenied}
          >
            {NOT_CONSENSUAL_STATEMENT}
          </Statement>
        )}
        <Statement id="report-goodFaith" checked={draft.goodFaith} onChange={(v) => update('goodFaith', v, ['goodFaith'])} error={errors.goodFaith}>
          {GOOD_FAITH_STATEMENT}
        </Statement>
        <div className="report-signature">
        <TextField
          id="report-signature"
          label="Signature"
          required
          error={errors.signature}
          hint="Type your full name. It signs the statements above."
          name="signature"
          autoComplete="name"
          maxLength={REPORT_LIMITS.signature}
          value={draft.signature}
          onValueChange={(v) => update('signature', v, ['signature'])}
        />
        </div>
      </Section>

      {failure && (
        <p className="report-form__failure" role="alert" data-testid="report-failure">
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary button--block report-form__submit" disabled={sending} aria-disabled={sending} data-testid="report-submit">
        {sending && <span className="form-spinner" aria-hidden="true" />}
        {sending ? 'Sending…' : 'Send report'}
      </button>
    </form>
  );
}

function Section({ step, title, hint, children }: { step: number; title: string; hint?: string; children: ReactNode }) {
  return (
    <section className="report-section" aria-labelledby={`report-step-${step}`}>
      <h3 id={`report-step-${step}`} className="report-section__title">
        <span className="report-section__step" aria-hidden="true">
          {step}
        </span>
        {title}
      </h3>
      {hint && <p className="report-section__hint">{hint}</p>}
      {children}
    </section>
  );
}

function RadioGroup<T extends string>({
  name,
  legend,
  options,
  value,
  onChange,
  error,
  compact,
}: {
  name: string;
  legend: string;
  options: { value: T; label: string; hint?: string; id: string }[];
  value: T | '';
  onChange: (value: T) => void;
  error?: string;
  compact?: boolean;
}) {
  const errorId = `report-${name}-error`;
  return (
    <fieldset className={`report-choices${compact ? ' report-choices--compact' : ''}${error ? ' field--invalid' : ''}`} role="radiogroup" aria-describedby={error ? errorId : undefined} aria-required="true">
      <legend className="field__label">
        {legend}
        <span className="field__required" aria-hidden="true">
          *
        </span>
      </legend>
      <div className="report-choices__list">
        {options.map((option) => (
          <div key={option.value} className="report-choice">
            <input
              id={option.id}
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              aria-describedby={option.hint ? `${option.id}-hint` : undefined}
              aria-invalid={error ? true : undefined}
            />
            <span className="report-choice__text">
              {/* The label covers the whole card (CSS), so the card is the target; the hint is the radio's description. */}
              <label className="report-choice__label" htmlFor={option.id}>
                {option.label}
              </label>
              {option.hint && (
                <span id={`${option.id}-hint`} className="report-choice__hint">
                  {option.hint}
                </span>
              )}
            </span>
          </div>
        ))}
      </div>
      {error && <FieldError id={errorId} message={error} />}
    </fieldset>
  );
}

function Statement({ id, checked, onChange, error, children }: { id: string; checked: boolean; onChange: (checked: boolean) => void; error?: string; children: ReactNode }) {
  const errorId = `${id}-error`;
  return (
    <div className={`field report-statement${error ? ' field--invalid' : ''}`}>
      <label className="report-statement__label" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <span>
          {children}
          <span className="field__required" aria-hidden="true">
            *
          </span>
        </span>
      </label>
      {error && <FieldError id={errorId} message={error} />}
    </div>
  );
}

function Counter({ value, max }: { value: string; max: number }) {
  const length = value.trim().length;
  return (
    <span className={`field__counter${length > max ? ' field__counter--over' : ''}`} aria-hidden="true">
      {length.toLocaleString('en-US')} / {max.toLocaleString('en-US')}
    </span>
  );
}
