import { Link } from 'react-router';
import { MAX_IMAGES, MIN_IMAGES, PROMPT_MAX_LENGTH, STYLES, type Style } from '../../../../events/generation-values';
import { formatCredits } from '../../account/format';
import { ChoiceGroup } from '../../components/ChoiceGroup';
import { Icon } from '../../components/Icon';
import { costText } from '../../generation/format';

const COUNTS = Array.from({ length: MAX_IMAGES - MIN_IMAGES + 1 }, (_, i) => MIN_IMAGES + i);

/**
 * What to generate: the prompt, the style, how many images and what they cost; a client whose
 * balance is short is told so (`balance` only for a signed-in client).
 */
export function PromptFields(props: {
  id: string;
  prompt: string;
  onPrompt: (prompt: string) => void;
  style: Style;
  onStyle: (style: Style) => void;
  count: number;
  onCount: (count: number) => void;
  disabled: boolean;
  balance?: number;
}) {
  const { id, prompt, onPrompt, style, onStyle, count, onCount, disabled, balance = 0 } = props;
  const client = props.balance !== undefined;
  const short = client && balance < count;
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-prompt`}>
          Prompt
        </label>
        <textarea
          id={`${id}-prompt`}
          className="input textarea create-form__prompt"
          rows={4}
          maxLength={PROMPT_MAX_LENGTH}
          value={prompt}
          onChange={(e) => onPrompt(e.target.value)}
          disabled={disabled}
          placeholder="Describe the image: the setting, the light, what the person is doing…"
          aria-describedby={`${id}-prompt-count`}
        />
        <div className="field__meta">
          <span />
          <span id={`${id}-prompt-count`} className="create-form__counter" aria-live="polite" aria-atomic="true">
            {prompt.length} / {PROMPT_MAX_LENGTH}
            <span className="sr-only"> characters</span>
          </span>
        </div>
      </div>

      <ChoiceGroup
        legend="Style"
        name={`${id}-style`}
        options={STYLES}
        value={style}
        onChange={onStyle}
        disabled={disabled}
        className="create-choices"
        listClassName="create-badges"
        choiceClassName="create-badge"
      />

      <div className="create-form__row create-form__row--end">
        <ChoiceGroup
          legend="Number of images"
          name={`${id}-count`}
          options={COUNTS}
          value={count}
          onChange={onCount}
          disabled={disabled}
          className="create-choices"
          listClassName="create-badges create-badges--count"
          choiceClassName="create-badge create-badge--count"
        />
        <p className="create-cost" data-testid="create-cost">
          <strong>{costText(count)}</strong>
          {client && (
            <span>
              {' '}
              · Balance <span data-testid="create-balance">{formatCredits(balance)}</span> {balance === 1 ? 'credit' : 'credits'}
            </span>
          )}
        </p>
      </div>

      {short && (
        <p className="create-short" role="note" data-testid="not-enough-credits">
          <Icon name="coins" size={20} />
          <span>
            Not enough credits: {count} {count === 1 ? 'image needs 1 credit' : `images need ${count} credits`} and your balance is{' '}
            {formatCredits(balance)}. {balance > 0 && 'Choose fewer images, or '}
            <Link to="/pricing">{balance > 0 ? 'see the plans' : 'See the plans'}</Link> for more credits.
          </span>
        </p>
      )}
    </>
  );
}
