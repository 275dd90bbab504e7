import type { ExcludableIndustry } from '../../../../events/founding-values';
import '../FormField.css';
import './ApplicationForm.css';
import './ExcludedIndustries.css';

export type ExcludedIndustries = Record<ExcludableIndustry, boolean>;

// Written out rather than imported: only the type comes from events/, so the page carries no contract module.
const INDUSTRIES: readonly { key: ExcludableIndustry; label: string }[] = [
  { key: 'religion', label: 'Religion' },
  { key: 'politics', label: 'Politics' },
  { key: 'alcohol', label: 'Alcohol' },
];

interface Props {
  value: ExcludedIndustries;
  onChange: (value: ExcludedIndustries) => void;
  /** Prefix of the hint's and the checkboxes' ids. */
  idPrefix: string;
  disabled?: boolean;
}

/** The application forms' fieldset of industries the applicant's likeness is never licensed for. */
export function ExcludedIndustriesFieldset({ value, onChange, idPrefix, disabled }: Props) {
  const hintId = `${idPrefix}-industries-hint`;
  return (
    <fieldset className="app-form__group" aria-describedby={hintId} disabled={disabled}>
      <legend className="app-form__legend">Industries to exclude</legend>
      <p id={hintId} className="field__hint app-form__group-hint">
        Your likeness will never be licensed for the industries you tick. You can change this later.
      </p>
      <div className="industry-chips">
        {INDUSTRIES.map(({ key, label }) => (
          <label key={key} className="industry-chip">
            <input
              type="checkbox"
              name={`exclude-${key}`}
              id={`${idPrefix}-exclude-${key}`}
              checked={value[key]}
              onChange={(e) => onChange({ ...value, [key]: e.target.checked })}
            />
            <span>{label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
