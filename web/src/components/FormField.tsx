import type { InputHTMLAttributes, ReactNode } from 'react';
import './FormField.css';

/** The attributes a control needs to be tied to its hint and error. */
interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
  'aria-required'?: true;
}

interface FormFieldProps {
  id: string;
  label: ReactNode;
  required?: boolean;
  /** Marks the field "(optional)" after the label. */
  optional?: boolean;
  hint?: ReactNode;
  error?: string;
  /** Extra element shown beside the hint, e.g. a character counter. */
  aside?: ReactNode;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

/**
 * A labelled form control with an optional hint and an inline error. The error is linked with
 * aria-describedby and flags the control with aria-invalid, so screen readers announce it with
 * the field; the hint stays linked too.
 */
function FormField({ id, label, required, optional, hint, error, aside, className, children }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;

  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
        {required && (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        )}
        {optional && <span className="field__optional"> (optional)</span>}
      </label>
      {children({
        id,
        'aria-describedby': describedBy,
        'aria-invalid': error ? true : undefined,
        'aria-required': required ? true : undefined,
      })}
      {(hint || aside) && (
        <div className="field__meta">
          {hint ? (
            <p id={hintId} className="field__hint">
              {hint}
            </p>
          ) : (
            <span />
          )}
          {aside}
        </div>
      )}
      {error && <FieldError id={errorId!} message={error} />}
    </div>
  );
}

/** An inline error message with an icon; give it an id that the control names in aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} className="field__error" data-testid={`${id}`}>
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        <circle cx="8" cy="8" r="7" fill="currentColor" />
        <path d="M8 4.5v4.2M8 11.1v.4" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <span>{message}</span>
    </p>
  );
}

interface TextFieldProps extends Omit<FormFieldProps, 'children' | 'className'>, Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className' | 'required'> {
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  /** A textarea of this many rows instead of a one-line input. */
  rows?: number;
}

/** A FormField around a text input (or, with `rows`, a textarea). */
export function TextField({ id, label, required, optional, hint, error, aside, value, onValueChange, rows, type = 'text', ...input }: TextFieldProps) {
  return (
    <FormField id={id} label={label} required={required} optional={optional} hint={hint} error={error} aside={aside}>
      {(p) =>
        rows ? (
          <textarea {...p} name={input.name} className="input textarea" rows={rows} maxLength={input.maxLength} value={value} onChange={(e) => onValueChange(e.target.value)} />
        ) : (
          <input {...p} {...input} className="input" type={type} value={value} onChange={(e) => onValueChange(e.target.value)} />
        )
      }
    </FormField>
  );
}
