/**
 * One choice among a few, as a fieldset of radio buttons each showing its value (a style, a
 * quality, a number of images). The classes give each place its own look.
 */
export function ChoiceGroup<T extends string | number>({
  legend,
  name,
  options,
  value,
  onChange,
  disabled,
  className,
  listClassName,
  choiceClassName,
}: {
  legend: string;
  /** The radios' name, unique on the page. */
  name: string;
  options: readonly T[];
  value: T;
  onChange: (value: T) => void;
  disabled?: boolean;
  className: string;
  listClassName: string;
  choiceClassName: string;
}) {
  return (
    <fieldset className={className} disabled={disabled}>
      <legend className="field__label">{legend}</legend>
      <div className={listClassName}>
        {options.map((option) => (
          <label key={option} className={choiceClassName}>
            <input type="radio" name={name} value={option} checked={value === option} onChange={() => onChange(option)} />
            <span>{option}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
