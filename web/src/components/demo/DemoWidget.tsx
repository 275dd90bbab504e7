import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { prefersReducedMotion } from '../../lib/usePrefersReducedMotion';
import { ChoiceGroup } from '../ChoiceGroup';
import { Icon } from '../Icon';
import { SAMPLE_TALENTS, TALENT_IMAGE_HEIGHT, TALENT_IMAGE_WIDTH, talentImageUrl, type SampleTalent } from './sampleTalents';
import './DemoWidget.css';

const DEMO_STYLES = ['Photorealistic', 'Cinematic', 'Studio Portrait'] as const;
const DEMO_QUALITIES = ['High', 'Standard'] as const;
type DemoStyle = (typeof DEMO_STYLES)[number];
type DemoQuality = (typeof DEMO_QUALITIES)[number];
const DEMO_CHOICE_CLASSES = { className: 'demo-options', listClassName: 'demo-options__list', choiceClassName: 'demo-option' };
type Step = 1 | 2 | 3;

/** How long the pretend generation runs; shorter when the user prefers reduced motion. */
const DEMO_GENERATION_MS = 2400;
const REDUCED_GENERATION_MS = 600;
const TICK_MS = 80;

const STEP_NAMES: Record<Step, string> = { 1: 'Choose a talent', 2: 'Generate', 3: 'Your licensed image' };

const STYLE_CLASS: Record<DemoStyle, string> = {
  Photorealistic: 'demo-result--photo',
  Cinematic: 'demo-result--cinematic',
  'Studio Portrait': 'demo-result--studio',
};

function progressMessage(progress: number): string {
  if (progress < 35) return 'Loading the consented likeness model…';
  if (progress < 75) return 'Composing the scene…';
  return 'Adding the licence and final details…';
}

interface DemoWidgetProps {
  /** Label of the step-3 call to action, which scrolls to the page's signup form. */
  ctaLabel?: string;
  /** id of the element the call to action scrolls to (the waitlist form's 'signup-form'). */
  ctaTargetId?: string;
}

/**
 * The three-step "how it will work" demo (docs/product.md#demo-widget): pick a sample talent,
 * run a pretend generation, see the licensed result. Nothing is sent anywhere; the result is
 * the talent's reference illustration with the chosen style applied, labelled as a preview.
 */
export function DemoWidget({ ctaLabel = 'Get early access', ctaTargetId = 'signup-form' }: DemoWidgetProps) {
  const [step, setStep] = useState<Step>(1);
  const [talentId, setTalentId] = useState(SAMPLE_TALENTS[0].id);
  const [style, setStyle] = useState<DemoStyle>('Photorealistic');
  const [quality, setQuality] = useState<DemoQuality>('High');
  const [progress, setProgress] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moveFocus = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  const uid = useId();

  const talent: SampleTalent = SAMPLE_TALENTS.find((t) => t.id === talentId) ?? SAMPLE_TALENTS[0];
  const generating = progress !== null;

  useEffect(() => () => window.clearInterval(timer.current), []);

  // After a step change the user asked for, put focus on the new step's heading.
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    headingRef.current?.focus();
  }, [step]);

  function goTo(next: Step) {
    moveFocus.current = true;
    setStep(next);
    setAnnouncement(`Step ${next} of 3: ${STEP_NAMES[next]}`);
  }

  function generate() {
    if (generating) return;
    const duration = prefersReducedMotion() ? REDUCED_GENERATION_MS : DEMO_GENERATION_MS;
    const started = Date.now();
    setProgress(0);
    setAnnouncement(`Generating a ${style.toLowerCase()} image of ${talent.name}…`);
    timer.current = window.setInterval(() => {
      const done = Math.min(100, Math.round(((Date.now() - started) / duration) * 100));
      setProgress(done);
      if (done >= 100) {
        window.clearInterval(timer.current);
        setProgress(null);
        goTo(3);
      }
    }, TICK_MS);
  }

  function reset() {
    window.clearInterval(timer.current);
    setProgress(null);
    setTalentId(SAMPLE_TALENTS[0].id);
    setStyle('Photorealistic');
    setQuality('High');
    goTo(1);
  }

  const stepHeading = (
    <h3 ref={headingRef} tabIndex={-1} className="demo__step-title" data-testid="demo-step-title">
      <span className="demo__step-count">Step {step} of 3</span> {STEP_NAMES[step]}
    </h3>
  );

  return (
    <div className="card demo" data-testid="demo-widget" data-step={step}>
      <ol className="demo__progress" aria-label="Demo steps">
        {([1, 2, 3] as const).map((n) => (
          <li key={n} className="demo__progress-item" aria-current={n === step ? 'step' : undefined} data-done={n < step}>
            <span className="demo__progress-dot" aria-hidden="true">
              {n < step ? <Icon name="check" size={16} /> : n}
            </span>
            <span className="demo__progress-label">{STEP_NAMES[n]}</span>
          </li>
        ))}
      </ol>

      <p className="sr-only" aria-live="polite" data-testid="demo-status">
        {announcement}
      </p>

      {step === 1 && (
        <div className="demo__panel">
          {stepHeading}
          <p className="demo__intro">Pick one of our sample talent. Every likeness here is licensed with consent.</p>
          <fieldset className="demo__talents">
            <legend className="sr-only">Sample talent</legend>
            {SAMPLE_TALENTS.map((t) => (
              <label key={t.id} className="demo-talent" data-testid={`demo-talent-${t.id}`}>
                <input
                  type="radio"
                  name={`${uid}-talent`}
                  value={t.id}
                  checked={talentId === t.id}
                  onChange={() => setTalentId(t.id)}
                  className="demo-talent__input"
                />
                <img
                  src={talentImageUrl(t.id)}
                  alt=""
                  width={TALENT_IMAGE_WIDTH}
                  height={TALENT_IMAGE_HEIGHT}
                  className="demo-talent__image"
                  loading="lazy"
                />
                <span className="demo-talent__text">
                  <span className="demo-talent__name">{t.name}</span>
                  <span className="demo-talent__tagline">{t.specialty}</span>
                </span>
                <span className="demo-talent__check" aria-hidden="true">
                  <Icon name="check" size={16} />
                </span>
              </label>
            ))}
          </fieldset>
          <div className="demo__actions">
            <button type="button" className="button button--primary" onClick={() => goTo(2)} data-testid="demo-continue">
              Continue <Icon name="arrowRight" size={18} className="button__arrow" />
            </button>
          </div>
        </div>
      )}

      {step === 2 && (
        <div className="demo__panel">
          {stepHeading}
          <div className="demo__split">
            <div className="demo__preview demo__preview--canvas">
              <div className={`demo-canvas ${generating ? 'demo-canvas--busy' : ''}`}>
                <img
                  src={talentImageUrl(talent.id)}
                  alt=""
                  width={TALENT_IMAGE_WIDTH}
                  height={TALENT_IMAGE_HEIGHT}
                  className="demo-canvas__image"
                />
                <span className="demo-canvas__label">
                  {generating ? progressMessage(progress) : 'Your image will appear here'}
                </span>
              </div>
            </div>
            <div className="demo__controls">
              <div className="demo-selected">
                <img src={talentImageUrl(talent.id)} alt="" width={48} height={60} className="demo-selected__image" />
                <div>
                  <p className="demo-selected__name">{talent.name}</p>
                  <p className="demo-selected__tagline">{talent.specialty}</p>
                </div>
                <button type="button" className="button button--ghost demo-selected__change" onClick={() => goTo(1)} disabled={generating}>
                  Change<span className="sr-only"> talent</span>
                </button>
              </div>

              <div className="field">
                <label htmlFor={`${uid}-prompt`} className="field__label">
                  Prompt
                </label>
                <textarea
                  id={`${uid}-prompt`}
                  className="input demo__prompt"
                  readOnly
                  rows={4}
                  value={talent.demoPrompt}
                  aria-describedby={`${uid}-prompt-hint`}
                  data-testid="demo-prompt"
                />
                <p id={`${uid}-prompt-hint`} className="field__hint">
                  The prompt is fixed in this demo.
                </p>
              </div>

              <ChoiceGroup legend="Style" name={`${uid}-style`} options={DEMO_STYLES} value={style} onChange={setStyle} disabled={generating} {...DEMO_CHOICE_CLASSES} />
              <ChoiceGroup legend="Quality" name={`${uid}-quality`} options={DEMO_QUALITIES} value={quality} onChange={setQuality} disabled={generating} {...DEMO_CHOICE_CLASSES} />

              {generating ? (
                <div className="demo-progress" data-testid="demo-progress">
                  <div
                    className="demo-progress__bar"
                    role="progressbar"
                    aria-label="Generating sample image"
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={progress}
                  >
                    <span style={{ width: `${progress}%` }} />
                  </div>
                  <p className="demo-progress__text">{progressMessage(progress)}</p>
                </div>
              ) : (
                <button type="button" className="button button--primary button--block" onClick={generate} data-testid="demo-generate">
                  <Icon name="sparkles" size={18} /> Generate
                </button>
              )}
            </div>
          </div>
        </div>
      )}

      {step === 3 && (
        <div className="demo__panel">
          {stepHeading}
          <div className="demo__split">
            <div className="demo__preview">
              <figure className={`demo-result ${STYLE_CLASS[style]} ${quality === 'Standard' ? 'demo-result--standard' : ''}`} data-testid="demo-result">
                <div className="demo-result__frame">
                  <img
                    src={talentImageUrl(talent.id)}
                    alt={`Preview of a ${style.toLowerCase()} image of ${talent.name}`}
                    width={TALENT_IMAGE_WIDTH}
                    height={TALENT_IMAGE_HEIGHT}
                    className="demo-result__image"
                  />
                  <span className="status-chip demo-result__chip">
                    <Icon name="shield" size={14} /> Licensed
                  </span>
                </div>
                <figcaption className="demo-result__caption">
                  {style} · {quality} quality · illustrative preview
                </figcaption>
              </figure>
            </div>
            <div className="demo__controls">
              <p className="demo__intro">
                Here is what you get with every image of {talent.name}:
              </p>
              <ul className="demo-benefits" data-testid="demo-benefits">
                <li>
                  <Icon name="shield" size={20} /> Consent verified: {talent.name} agreed to this use
                </li>
                <li>
                  <Icon name="license" size={20} /> A commercial-use licence, included
                </li>
                <li>
                  <Icon name="coins" size={20} /> A royalty for {talent.name}, paid monthly
                </li>
                <li>
                  <Icon name="sparkles" size={20} /> Ready in seconds, no photoshoot needed
                </li>
              </ul>
              <div className="demo__actions demo__actions--stack">
                <Link to={{ hash: ctaTargetId }} className="button button--primary" data-testid="demo-cta">
                  {ctaLabel} <Icon name="arrowRight" size={18} className="button__arrow" />
                </Link>
                <button type="button" className="button button--secondary" onClick={reset} data-testid="demo-reset">
                  See Another Example
                </button>
              </div>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
