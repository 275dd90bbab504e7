import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Generation, GenerationImage } from '../../../../events/generations';
import {
  DEFAULT_IMAGES,
  DEFAULT_STYLE,
  GENERATION_FAILED_TOAST,
  GENERATION_TIMED_OUT,
  IMAGE_GENERATION_FAILED,
  LICENSE_CHECK_PATH,
  MAX_IMAGES,
  MIN_IMAGES,
  PROMPT_MAX_LENGTH,
  STYLES,
  licensePath,
  type GenerationStatus,
  type Style,
} from '../../../../events/generation-values';
import { formatCredits } from '../../account/format';
import { ApiError } from '../../api/client';
import { fetchTalentList, type PublicTalent } from '../../api/talent';
import { signInPath, safeNextPath } from '../../auth/next-path';
import { useAuth } from '../../auth/useAuth';
import type { AuthContextValue } from '../../auth/types';
import { ChoiceGroup } from '../../components/ChoiceGroup';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toast';
import { useConfig } from '../../config';
import { generationApi } from '../../generation/api';
import { clearDraft, loadDraft, saveDraft } from '../../generation/draft';
import { STATUS_TEXT, costText, startAttempt, startWasAnswered, type UnansweredStart } from '../../generation/format';
import { GenerationTimedOutError, PollAbortedError, pollGeneration } from '../../generation/poll';
import { usePageTitle } from '../../lib/usePageTitle';
import { DownloadButton } from '../../generation/DownloadButton';
import '../../components/FormField.css';
import './CreatePage.css';

const COUNTS = Array.from({ length: MAX_IMAGES - MIN_IMAGES + 1 }, (_, i) => MIN_IMAGES + i);

/** Why the last run ended without images, shown under the form (the toast says it too, briefly). */
type Problem = { message: string; pricing?: boolean };

/** No exclusive talent (a stable value for memos). */
const NONE: PublicTalent[] = [];

/**
 * /create (docs/product.md#create): choose a talent, write a prompt, pick a style and how many
 * images; a client's Generate starts a generation (`POST /generations`) and follows it every 5 s
 * until its images are in, each with a download and its license. Signed out, the page explains
 * and keeps what was typed for after sign-in; a talent account is told generating is for clients.
 */
export function CreatePage() {
  usePageTitle('Create Ethical Content');
  const auth = useAuth();
  const { apiUrl } = useConfig();
  const toast = useToast();
  const [params] = useSearchParams();
  const id = useId();
  const api = useMemo(() => generationApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);

  // The form, restored from a draft kept before signing in; ?talent= wins over the draft's talent.
  const [initial] = useState(() => loadDraft());
  const queryTalent = params.get('talent')?.trim() ?? '';
  const [talentId, setTalentId] = useState(queryTalent || initial?.talentId || '');
  const [prompt, setPrompt] = useState(initial?.prompt ?? '');
  const [style, setStyle] = useState<Style>(initial?.style ?? DEFAULT_STYLE);
  const [count, setCount] = useState(initial?.count ?? DEFAULT_IMAGES);
  // A new ?talent= (a link followed while on the page) chooses that talent.
  const [seenQuery, setSeenQuery] = useState(queryTalent);
  if (queryTalent !== seenQuery) {
    setSeenQuery(queryTalent);
    if (queryTalent) setTalentId(queryTalent);
  }
  useEffect(() => saveDraft({ talentId, prompt, style, count }), [talentId, prompt, style, count]);

  const [talent, setTalent] = useState<PublicTalent[] | null>(null);
  const [talentError, setTalentError] = useState('');
  const [talentAttempt, setTalentAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetchTalentList(apiUrl, controller.signal).then(
      (list) => {
        setTalent(list);
        setTalentError('');
      },
      (err: unknown) => {
        if ((err as Error).name !== 'AbortError') setTalentError('The talent could not be loaded. Check your connection and try again.');
      },
    );
    return () => controller.abort();
  }, [apiUrl, talentAttempt]);
  // A brand's exclusive talent (hidden from the public list) join its choices (docs/royalties.md#exclusive-contracts);
  // null while a client's are loading, so a ?talent= of theirs is not called unknown meanwhile.
  const [loadedExclusive, setExclusive] = useState<PublicTalent[] | null>(null);
  const signedInClient = auth.me?.role === 'client';
  useEffect(() => {
    if (!signedInClient) return;
    let cancelled = false;
    api.exclusiveTalent().then(
      (list) => !cancelled && setExclusive(list),
      // The public talent still work; the brand's own come back with "Try again" or the next visit.
      () => !cancelled && setExclusive([]),
    );
    return () => {
      cancelled = true;
    };
  }, [api, signedInClient, talentAttempt]);
  const exclusive = signedInClient ? loadedExclusive : NONE;
  const choices = useMemo(() => (talent ? [...talent, ...(exclusive ?? NONE).filter((e) => !talent.some((t) => t.id === e.id))] : null), [talent, exclusive]);
  const chosen = choices?.find((t) => t.id === talentId);
  const unknownTalent = Boolean(choices && exclusive && talentId && !chosen);

  // One run at a time; leaving the page stops following it.
  const [running, setRunning] = useState(false);
  const [generation, setGeneration] = useState<Generation>();
  const [results, setResults] = useState<GenerationImage[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const [announce, setAnnounce] = useState('');
  const run = useRef<AbortController | null>(null);
  useEffect(() => () => run.current?.abort(), []);
  // A start that got no answer: generating the same again resends its key, so a lost answer never makes a second generation.
  const unanswered = useRef<UnansweredStart | undefined>(undefined);

  const client = auth.me?.role === 'client';
  const balance = auth.me?.credits?.balance ?? 0;
  const short = client && balance < count;
  const canGenerate = client && Boolean(chosen) && prompt.trim().length > 0 && !running && !short;
  const nextPath = safeNextPath(`/create${talentId ? `?talent=${encodeURIComponent(talentId)}` : ''}`);

  const fail = useCallback(
    (message: string, pricing = false) => {
      setProblem({ message, pricing });
      toast({ title: GENERATION_FAILED_TOAST(message), variant: 'error', duration: 8000 });
    },
    [toast],
  );

  async function generate(event: FormEvent) {
    event.preventDefault();
    if (!canGenerate || !chosen) return;
    run.current?.abort();
    const controller = new AbortController();
    run.current = controller;
    setRunning(true);
    setResults([]);
    setProblem(undefined);
    setGeneration(undefined);
    setAnnounce('Generating your images. This takes about a minute.');
    const request = { talentId: chosen.id, prompt: prompt.trim(), style, count };
    const attempt = startAttempt(unanswered.current, request);
    unanswered.current = attempt;
    try {
      const started = await api.start(request, attempt.key).catch((err: unknown) => {
        if (err instanceof ApiError && startWasAnswered(err.status)) unanswered.current = undefined;
        throw err;
      });
      unanswered.current = undefined;
      clearDraft();
      const final = await pollGeneration({ get: (gid) => api.get(gid), id: started.id, signal: controller.signal, onUpdate: setGeneration });
      if (final.status === 'succeeded') {
        setResults(final.images);
        setAnnounce(`${final.images.length} ${final.images.length === 1 ? 'image is' : 'images are'} ready.`);
      } else {
        const message = final.failure?.message ?? (final.status === 'canceled' ? 'The generation was canceled.' : IMAGE_GENERATION_FAILED);
        setProblem({ message, pricing: final.failure?.code === 'insufficient-credits' });
        setAnnounce(`${IMAGE_GENERATION_FAILED}. ${message}`);
        toast({ title: IMAGE_GENERATION_FAILED, description: message, variant: 'error', duration: 8000 });
      }
    } catch (err) {
      if (err instanceof PollAbortedError) return;
      if (err instanceof GenerationTimedOutError) {
        setProblem({ message: `${GENERATION_TIMED_OUT}. If it finishes later, your images appear in your client portal.` });
        setAnnounce(GENERATION_TIMED_OUT);
        toast({ title: GENERATION_TIMED_OUT, variant: 'error', duration: 8000 });
      } else {
        const message = err instanceof Error ? err.message : 'Something went wrong. Try again.';
        setAnnounce(GENERATION_FAILED_TOAST(message));
        fail(message, err instanceof ApiError && err.status === 409 && /credits/i.test(message));
      }
    } finally {
      if (run.current === controller) {
        run.current = null;
        setRunning(false);
        // The balance after the run (credits spent, or returned after a failure).
        void auth.refresh();
      }
    }
  }

  const status: GenerationStatus | undefined = running ? (generation?.status ?? 'queued') : undefined;

  return (
    <div className="create" data-testid="create-page">
      <section className="page-hero create-hero" aria-labelledby="create-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">Create</p>
          <h1 id="create-title">Create Ethical Content</h1>
          <p className="lead">Commercially licensed AI images of real people who said yes, with a royalty paid to them for every image.</p>
        </div>
      </section>

      <div className="container create__body">
        <AccountNotice auth={auth} nextPath={nextPath} />

        <form className="card create-form" onSubmit={(e) => void generate(e)} noValidate aria-labelledby={`${id}-form-title`} data-testid="create-form">
          <h2 id={`${id}-form-title`} className="sr-only">
            Image generation
          </h2>
          <div className="create-form__row">
            <div className="field create-form__model">
              <label className="field__label" htmlFor={`${id}-model`}>
                Model
              </label>
              <select
                id={`${id}-model`}
                className="select"
                value={chosen ? talentId : ''}
                onChange={(e) => setTalentId(e.target.value)}
                disabled={running || !talent}
                aria-describedby={`${id}-model-hint`}
                data-testid="model-select"
              >
                <option value="">{talent ? 'Choose a talent' : 'Loading talent…'}</option>
                {choices?.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
              <p id={`${id}-model-hint`} className="field__hint">
                {talentError ? (
                  <span role="alert">
                    {talentError}{' '}
                    <button type="button" className="create-link-button" onClick={() => setTalentAttempt((n) => n + 1)}>
                      Try again
                    </button>
                  </span>
                ) : unknownTalent ? (
                  'That talent is not available for generation. Choose another one.'
                ) : (
                  <>
                    Real people who license their likeness. <Link to="/talent">Browse the Talent Library</Link>
                  </>
                )}
              </p>
            </div>
            {chosen && (
              <div className="create-talent" data-testid="create-selected-talent" data-talent-id={chosen.id}>
                <img src={chosen.image} alt="" width={56} height={70} className="create-talent__image" />
                <div className="create-talent__text">
                  <p className="create-talent__label">Selected talent</p>
                  <p className="create-talent__name">{chosen.name}</p>
                </div>
              </div>
            )}
          </div>

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
              onChange={(e) => setPrompt(e.target.value)}
              disabled={running}
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
            onChange={setStyle}
            disabled={running}
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
              onChange={setCount}
              disabled={running}
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

          <div className="create-form__actions">
            <button type="submit" className="button button--primary create-generate" disabled={!canGenerate} data-testid="generate">
              <Icon name="sparkles" size={20} /> {running ? 'Generating...' : 'Generate Images'}
            </button>
          </div>
        </form>

        <section className="card create-results" aria-labelledby={`${id}-results-title`} data-testid="create-results">
          <h2 id={`${id}-results-title`} className="create-results__title">
            Your images
          </h2>
          <p className="sr-only" role="status" aria-live="polite" data-testid="create-announce">
            {announce}
          </p>
          {status && <Progress status={status} />}
          {problem && !running && (
            <div className="create-problem" data-testid="create-problem">
              <p className="create-problem__title">{IMAGE_GENERATION_FAILED}</p>
              <p>{problem.message}</p>
              {problem.pricing && (
                <Link to="/pricing" className="button button--secondary">
                  See the plans <Icon name="arrowRight" size={18} className="button__arrow" />
                </Link>
              )}
            </div>
          )}
          {results.length > 0 ? (
            <ul className="create-grid" aria-label="Generated images" data-testid="create-grid" data-count={Math.min(results.length, MAX_IMAGES)}>
              {results.map((image, i) => (
                <ResultTile key={image.licenseId} image={image} n={i + 1} of={results.length} talentName={generation?.talentName ?? chosen?.name ?? ''} api={api} />
              ))}
            </ul>
          ) : (
            !status &&
            !problem && (
              <p className="create-results__empty">
                Your images appear here, each with its commercial license. They are also kept in your client portal.
              </p>
            )
          )}
          <p className="create-results__check">
            <Icon name="shield" size={18} />
            <span>
              Have an image from us? <Link to={LICENSE_CHECK_PATH}>Check its license</Link>
            </span>
          </p>
        </section>
      </div>
    </div>
  );
}

/** Who may generate: signed out (sign in, the typed prompt is kept), a talent account, loading. */
function AccountNotice({ auth, nextPath }: { auth: AuthContextValue; nextPath: string | undefined }) {
  if (auth.loading || (auth.user && !auth.me && !auth.error)) {
    return (
      <p className="card create-notice" role="status">
        Loading your account…
      </p>
    );
  }
  if (!auth.user) {
    return (
      <div className="card create-notice" data-testid="create-signed-out">
        <Icon name="users" size={22} />
        <div>
          <p className="create-notice__title">Generating images needs a client account</p>
          <p>Sign in or create a free client account (10 credits to start). What you type here is kept while you sign in.</p>
          <div className="create-notice__actions">
            <Link to={signInPath(nextPath)} className="button button--primary">
              Sign in
            </Link>
            <Link to={nextPath ? `/sign-up?next=${encodeURIComponent(nextPath)}` : '/sign-up'} className="button button--secondary">
              Create an account
            </Link>
          </div>
        </div>
      </div>
    );
  }
  if (!auth.me) {
    return (
      <div className="card create-notice" role="alert">
        <p>{auth.error}</p>
        <button type="button" className="button button--secondary" onClick={() => void auth.refresh()}>
          Try again
        </button>
      </div>
    );
  }
  if (auth.me.role === 'client') {
    return (
      <p className="create-who" data-testid="create-signed-in">
        Signed in as <strong>{auth.me.profile.email}</strong> · <Link to="/client-portal">Client portal</Link>
      </p>
    );
  }
  return (
      <div className="card create-notice" data-testid="create-talent-account">
        <Icon name="heart" size={22} />
        <div>
          <p className="create-notice__title">Generating images is for client accounts</p>
          <p>
            You are signed in with a talent account. Clients generate images with your likeness; you see them in your talent
            portal.
          </p>
          <div className="create-notice__actions">
            <Link to="/talent-portal" className="button button--secondary">
              Go to the talent portal
            </Link>
          </div>
        </div>
      </div>
  );
}

function Progress({ status }: { status: GenerationStatus }) {
  const text = STATUS_TEXT[status];
  return (
    <div className="create-progress" data-testid="create-progress" data-status={status}>
      <div className="create-progress__head">
        <span className="create-progress__label">{text.label}</span>
        <span className="create-progress__words">{text.working}</span>
      </div>
      <div
        className="create-progress__bar"
        role="progressbar"
        aria-label="Generation progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={text.progress}
        aria-valuetext={`${text.label}: ${text.working}`}
      >
        <span style={{ width: `${text.progress}%` }} />
      </div>
    </div>
  );
}

function ResultTile({ image, n, of, talentName, api }: { image: GenerationImage; n: number; of: number; talentName: string; api: ReturnType<typeof generationApi> }) {
  return (
    <li className="create-tile" data-testid="create-result" data-license-id={image.licenseId}>
      <img src={image.url} alt={`Image ${n} of ${of}${talentName ? ` with ${talentName}` : ''}`} width={512} height={512} className="create-tile__image" />
      <div className="create-tile__actions">
        <DownloadButton api={api} licenseId={image.licenseId} label={`Download image ${n}`} />
        <Link to={licensePath(image.licenseId)} className="create-tile__license" aria-label={`License of image ${n}`}>
          <Icon name="license" size={18} /> License
        </Link>
      </div>
    </li>
  );
}
