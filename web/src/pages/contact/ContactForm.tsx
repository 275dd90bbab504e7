import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import {
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  CONTACT_RESPONSE_TIME,
  ContactValidationError,
  contactPage,
  normalizeContact,
  sendContactMessage,
  validateContact,
  type ContactField,
  type ContactFieldErrors,
  type ContactValues,
} from '../../api/contact';
import { ApiError } from '../../api/client';
import { useToast } from '../../components/Toast';
import { useConfig } from '../../config';
import { TextField } from '../../components/FormField';
import { Icon } from '../../components/Icon';

const EMPTY: ContactValues = { firstName: '', lastName: '', email: '', subject: '', message: '' };

const FIELD_IDS: Record<ContactField, string> = {
  firstName: 'contact-first-name',
  lastName: 'contact-last-name',
  email: 'contact-email',
  subject: 'contact-subject',
  message: 'contact-message',
};

/**
 * The contact form (docs/product.md#contact). Validates in the browser with the API's rules and
 * messages, then sends for real; server-side field errors are shown the same way as local ones.
 */
export function ContactForm() {
  const { apiUrl, contactEmail } = useConfig();
  const { pathname } = useLocation();
  const toast = useToast();

  const [values, setValues] = useState<ContactValues>(EMPTY);
  const [errors, setErrors] = useState<ContactFieldErrors>({});
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<{ firstName: string; email: string } | null>(null);
  const confirmationRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (sentTo) confirmationRef.current?.focus();
  }, [sentTo]);
  function update(field: ContactField, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    // An edited field's error goes away; it is checked again on the next submit.
    if (errors[field]) setErrors(({ [field]: _removed, ...rest }) => rest);
  }

  function showErrors(found: ContactFieldErrors) {
    setErrors(found);
    const first = CONTACT_FIELDS.find((f) => found[f]);
    if (first) document.getElementById(FIELD_IDS[first])?.focus();
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;

    const normalized = normalizeContact(values);
    const found = validateContact(normalized);
    if (Object.keys(found).length > 0) {
      showErrors(found);
      return;
    }

    setErrors({});
    setSending(true);
    try {
      await sendContactMessage(apiUrl, { ...normalized, page: contactPage(pathname) });
      setSentTo({ firstName: normalized.firstName, email: normalized.email });
    } catch (err) {
      if (err instanceof ContactValidationError) {
        showErrors(err.fields);
      } else {
        // A 429 carries the daily-limit explanation, which says more than the generic text.
        const limited = err instanceof ApiError && err.status === 429 && err.message.trim() !== '';
        toast({
          title: 'Message not sent',
          description: limited
            ? err.message
            : `There was a problem sending your message. Please try again or email us at ${contactEmail}.`,
          variant: 'error',
          duration: 8000,
        });
      }
    } finally {
      setSending(false);
    }
  }

  if (sentTo) {
    return (
      <div className="card form-card contact-form form-success contact-form--sent" role="status" data-testid="contact-success">
        <span className="badge-circle form-success__icon" aria-hidden="true">
          <Icon name="check" size={32} />
        </span>
        <h2 ref={confirmationRef} tabIndex={-1} className="form-card__title">
          Message sent
        </h2>
        <p>
          Thanks, {sentTo.firstName}. We have received your message and typically reply {CONTACT_RESPONSE_TIME}. Our
          answer will go to <strong>{sentTo.email}</strong>.
        </p>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            setValues(EMPTY);
            setSentTo(null);
          }}
        >
          Send another message
        </button>
      </div>
    );
  }

  const messageLength = values.message.trim().length;
  const errorCount = Object.keys(errors).length;

  return (
    <form className="card form-card contact-form" noValidate onSubmit={handleSubmit} aria-labelledby="contact-form-title" data-testid="contact-form">
      <h2 id="contact-form-title" className="form-card__title">
        Send us a message
      </h2>
      <p className="form-card__intro contact-form__intro">
        <span aria-hidden="true">*</span> All fields are required.
      </p>

      {/* Announces that the form has errors; each message sits next to its field. */}
      <p className="sr-only" role="alert">
        {errorCount > 0 ? `Please correct ${errorCount === 1 ? 'the highlighted field' : `${errorCount} highlighted fields`}.` : ''}
      </p>

      <div className="field-row">
        <TextField id={FIELD_IDS.firstName} label="First name" required error={errors.firstName} name="firstName" autoComplete="given-name" value={values.firstName} onValueChange={(v) => update('firstName', v)} />
        <TextField id={FIELD_IDS.lastName} label="Last name" required error={errors.lastName} name="lastName" autoComplete="family-name" value={values.lastName} onValueChange={(v) => update('lastName', v)} />
      </div>

      <TextField id={FIELD_IDS.email} label="Email" required error={errors.email} name="email" type="email" inputMode="email" autoComplete="email" placeholder="you@example.com" value={values.email} onValueChange={(v) => update('email', v)} />

      <TextField id={FIELD_IDS.subject} label="Subject" required error={errors.subject} name="subject" placeholder="How can we help?" value={values.subject} onValueChange={(v) => update('subject', v)} />

      <TextField
        id={FIELD_IDS.message}
        label="Message"
        required
        error={errors.message}
        hint={`Up to ${CONTACT_LIMITS.message.toLocaleString('en-US')} characters.`}
        aside={
          <span
            className={`field__counter${messageLength > CONTACT_LIMITS.message ? ' field__counter--over' : ''}`}
            aria-hidden="true"
            data-testid="contact-message-count"
          >
            {messageLength.toLocaleString('en-US')} / {CONTACT_LIMITS.message.toLocaleString('en-US')}
          </span>
        }
        name="message"
        rows={7}
        value={values.message}
        onValueChange={(v) => update('message', v)}
      />

      <button
        type="submit"
        className="button button--primary button--block contact-form__submit"
        disabled={sending}
        aria-disabled={sending}
        data-testid="contact-submit"
      >
        {sending && <span className="form-spinner" aria-hidden="true" />}
        {sending ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
