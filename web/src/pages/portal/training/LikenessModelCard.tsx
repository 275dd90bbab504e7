import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { LikenessModelView, SampleView } from '../../../../../events/training';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Icon } from '../../../components/Icon';
import { useConfig } from '../../../config';
import type { SignedIn } from '../PortalGate';
import { checkNote, likenessModelApi, NOTE_MAX_LENGTH, type LikenessModelApi } from './api';
import { currentStep, isRunning, modelStateText, retrainsText, sampleAlt, TRAINING_STEPS } from './format';
import { startPolling } from './poll';
import './LikenessModelCard.css';
import { Loaded } from '../../../components/Loading';
import { errorText } from '../../../lib/errorText';
import { useAccountQuery } from '../../../lib/query';

/** The portal's status chips in the tone of the model's state. */
const CHIP: Record<ReturnType<typeof modelStateText>['tone'], string> = { neutral: 'neutral', waiting: 'validating', action: 'validating', good: 'accepted', bad: 'failed' };

/** Sample URLs live 10 minutes: a broken image reads the model again, at most this often. */
const SAMPLE_RELOAD_GAP_MS = 60_000;

/**
 * "Your likeness model" (lazy: LikenessModelSection; docs/product.md#talent-portal): the model's
 * state with what happens next, the steps of a running training (read again, spaced out, while the
 * page shows), the samples to review, "Approve: put my likeness live" behind a confirmation and
 * "This isn't me" with a required note.
 */
export default function LikenessModelCard({ auth }: { auth: SignedIn }) {
  const id = useId();
  const { apiUrl } = useConfig();
  const api = useMemo(() => likenessModelApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const [query, setView] = useAccountQuery('likeness-model', () => api.model());
  const view = query.data;
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState('');
  const [approving, setApproving] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const approveButton = useRef<HTMLButtonElement>(null);
  const lastReload = useRef(0);
  const wasApproving = useRef(false);
  // Back on Approve once the dialog has closed (while it is open the page behind is inert).
  useEffect(() => {
    if (!approving && wasApproving.current) approveButton.current?.focus();
    wasApproving.current = approving;
  }, [approving]);

  // While a training runs: read again, from 5 s to a minute apart, never while the page is hidden.
  const running = view ? isRunning(view.state) : false;
  useEffect(() => {
    if (!running) return undefined;
    let current = true;
    const stop = startPolling({
      read: () =>
        api.model().then((v) => {
          if (current) setView(v);
          return isRunning(v.state);
        }),
      isHidden: () => document.visibilityState === 'hidden',
      onVisibility: (listener) => {
        document.addEventListener('visibilitychange', listener);
        return () => document.removeEventListener('visibilitychange', listener);
      },
      setTimer: (run, ms) => window.setTimeout(run, ms),
      clearTimer: (timer) => window.clearTimeout(timer as number),
    });
    return () => {
      current = false;
      stop();
    };
  }, [api, running, setView]);

  const reloadSamples = () => {
    if (Date.now() - lastReload.current < SAMPLE_RELOAD_GAP_MS) return;
    lastReload.current = Date.now();
    void api.model().then(setView, () => undefined);
  };

  const afterRefusal = (err: unknown, fallback: string) => {
    setError(errorText(err, fallback));
    // What stands may have changed (approved elsewhere, a new training): show it.
    void api.model().then(setView, () => undefined);
  };

  const title = (
    <h2 id={`${id}-title`} className="acct-card__title">
      <Icon name="sparkles" size={20} /> Your likeness model
    </h2>
  );

  if (!view) {
    return (
      <section className="card acct-card" aria-labelledby={`${id}-title`} aria-busy={!query.isError} data-testid="likeness-model">
        {title}
        <Loaded query={query} loading="Loading your likeness model…" failed="Your likeness model could not be loaded.">
          {() => null}
        </Loaded>
      </section>
    );
  }

  const text = modelStateText(view);
  const step = currentStep(view);
  const reviewing = view.state === 'ready-for-review';
  return (
    <section className="card acct-card model-card" aria-labelledby={`${id}-title`} data-testid="likeness-model" data-state={view.state}>
      {title}
      <p className="acct-status">
        <span className={`acct-status__chip acct-status__chip--${CHIP[text.tone]}`} data-testid="likeness-model-state">
          {text.label}
        </span>
      </p>
      <p data-testid="likeness-model-text">{text.body}</p>

      {step !== undefined && (
        <div className="model-progress" data-testid="likeness-model-progress">
          <progress className="model-progress__bar" aria-labelledby={`${id}-step`} />
          <p id={`${id}-step`} className="sr-only">
            Step {step + 1} of {TRAINING_STEPS.length}: {TRAINING_STEPS[step].label}
          </p>
          <ol className="model-steps">
            {TRAINING_STEPS.map((s, i) => (
              <li key={s.status} className={i < step ? 'model-steps__done' : i === step ? 'model-steps__now' : undefined} aria-current={i === step ? 'step' : undefined}>
                {i < step && <Icon name="check" size={16} />} {s.label}
              </li>
            ))}
          </ol>
          <p className="acct-muted">This page checks for you every so often; you can also leave it: we email you.</p>
        </div>
      )}

      {reviewing && view.latest && (
        <>
          <Samples heading="Your samples to review" samples={view.latest.samples} onBroken={reloadSamples} testId="likeness-model-samples" />
          <div className="acct-actions model-card__actions">
            <button ref={approveButton} type="button" className="button button--primary" onClick={() => setApproving(true)} data-testid="likeness-model-approve">
              Approve: put my likeness live
            </button>
            <button
              type="button"
              className="button button--ghost"
              aria-expanded={rejecting}
              aria-controls={`${id}-reject`}
              onClick={() => setRejecting((o) => !o)}
              data-testid="likeness-model-reject-open"
            >
              This isn't me
            </button>
          </div>
          <RejectForm
            id={`${id}-reject`}
            open={rejecting}
            api={api}
            retrainsLeft={view.retrainsLeft}
            onDone={(answer) => {
              setRejecting(false);
              setView(answer);
              setError(undefined);
              setMessage(
                answer.retraining
                  ? 'Thank you. A new training has started from the same photos; we email you when its samples are ready.'
                  : (answer.message ?? 'Thank you. Our team will look at your photos and contact you.'),
              );
            }}
            onRefused={(err) => afterRefusal(err, 'Your answer could not be sent. Try again.')}
          />
        </>
      )}

      {!reviewing && view.live && view.live.samples.length > 0 && (
        <details className="model-card__live">
          <summary>The samples of the version clients use now</summary>
          <Samples heading="Samples of your live version" samples={view.live.samples} onBroken={reloadSamples} testId="likeness-model-live-samples" />
        </details>
      )}

      <p className="acct-error" role="alert" data-testid="likeness-model-error">
        {error}
      </p>
      <p className="acct-saved" role="status" data-testid="likeness-model-message">
        {message}
      </p>

      {approving && (
        <ApproveDialog
          approve={api.approve}
          onDone={(next) => {
            setApproving(false);
            setView(next);
            setError(undefined);
            setMessage('Your likeness is live: clients can now license images made with your model.');
            // The likeness card above shows the library status the approval changed.
            void auth.refresh();
          }}
          onRefused={(err) => {
            setApproving(false);
            afterRefusal(err, 'Your approval could not be sent. Try again.');
          }}
          onClose={() => setApproving(false)}
        />
      )}
    </section>
  );
}

/** A version's sample gallery: previews for the talent only, each with its alt text. */
function Samples({ heading, samples, onBroken, testId }: { heading: string; samples: SampleView[]; onBroken: () => void; testId: string }) {
  const id = useId();
  if (samples.length === 0) return <p className="acct-muted">The sample images are not available any more.</p>;
  return (
    <div className="model-samples">
      <h3 id={`${id}-title`} className="model-samples__title">
        {heading}
      </h3>
      <p className="acct-muted" id={`${id}-hint`}>
        Previews made by your model so you can check it: they are not licensed, and only you and our team see them. Open one to see it
        full size.
      </p>
      <ul className="model-samples__grid" aria-labelledby={`${id}-title`} aria-describedby={`${id}-hint`} data-testid={testId}>
        {samples.map((s, i) => (
          <li key={s.url} className="model-samples__item">
            {/* Full size in a new tab: a thumbnail is too small to judge a likeness on a phone. */}
            <a href={s.url} target="_blank" rel="noopener noreferrer" className="model-samples__link">
              <img src={s.url} alt={sampleAlt(s, i, samples.length)} loading="lazy" width={512} height={512} onError={onBroken} />
              <span className="sr-only"> (opens full size in a new tab)</span>
            </a>
            <span className="model-samples__badge" aria-hidden="true">
              Preview
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "This isn't me": a required note (what looks wrong), and what happens next. */
function RejectForm({
  id,
  open,
  api,
  retrainsLeft,
  onDone,
  onRefused,
}: {
  /** The form's id, which the "This isn't me" button above controls. */
  id: string;
  open: boolean;
  api: LikenessModelApi;
  retrainsLeft: number;
  onDone: (answer: Awaited<ReturnType<LikenessModelApi['reject']>>) => void;
  onRefused: (err: unknown) => void;
}) {
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string>();
  const [sending, setSending] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (open) field.current?.focus();
  }, [open]);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkNote(note);
    if ('error' in checked) {
      setNoteError(checked.error);
      field.current?.focus();
      return;
    }
    setNoteError(undefined);
    setSending(true);
    try {
      onDone(await api.reject(checked.note));
    } catch (err) {
      onRefused(err);
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="model-reject">
      <form id={id} hidden={!open} onSubmit={(e) => void send(e)} noValidate className="model-reject__form">
        <label htmlFor={`${id}-note`} className="field__label">
          What does not look like you? (required)
        </label>
        <textarea
          ref={field}
          id={`${id}-note`}
          className="textarea"
          rows={3}
          maxLength={NOTE_MAX_LENGTH}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          required
          aria-required="true"
          aria-invalid={noteError ? true : undefined}
          aria-describedby={`${id}-hint${noteError ? ` ${id}-error` : ''}`}
          disabled={sending}
          data-testid="likeness-model-note"
        />
        <p id={`${id}-hint`} className="acct-muted" data-testid="likeness-model-retrains">
          {retrainsText(retrainsLeft)}
        </p>
        {noteError && (
          <p id={`${id}-error`} className="acct-error">
            {noteError}
          </p>
        )}
        <div className="acct-actions">
          <button type="submit" className="button button--secondary" disabled={sending} data-testid="likeness-model-reject">
            {sending ? 'Sending…' : retrainsLeft > 0 ? 'Send and train again' : 'Send to our team'}
          </button>
        </div>
      </form>
    </div>
  );
}

/**
 * The confirmation before the likeness goes live (ConfirmDialog) saying what approval means. A
 * refusal closes it: the card says why and shows what stands now.
 */
function ApproveDialog({
  approve,
  onDone,
  onRefused,
  onClose,
}: {
  approve: () => Promise<LikenessModelView>;
  onDone: (view: LikenessModelView) => void;
  onRefused: (err: unknown) => void;
  onClose: () => void;
}) {
  const confirm = async () => {
    let next: LikenessModelView;
    try {
      next = await approve();
    } catch (err) {
      onRefused(err);
      return;
    }
    onDone(next);
  };

  return (
    <ConfirmDialog
      title="Put your likeness live?"
      description={
        <p>
          Once you approve, clients can generate and license images of you made with this model, within the industries you allow. You
          are paid royalties on every license.
        </p>
      }
      confirmLabel="Approve and go live"
      busyLabel="Approving…"
      cancelLabel="Not yet"
      onConfirm={confirm}
      errorFallback="Your approval could not be sent. Try again."
      onClose={onClose}
      testId="likeness-model-approve-dialog"
      confirmTestId="likeness-model-approve-confirm"
    >
      <p>You can pause new generations or request removal from this page at any time; licenses already issued stay valid.</p>
    </ConfirmDialog>
  );
}
