import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { Link, useLocation } from 'react-router';
import type { IdentityStatus } from '../../../../events/identity';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';
import { identityApi } from './api';
import { PROBLEM_TEXTS, photoCountText, placeFields, problemOf, tokenFromHash, untilText, type Problem } from './flow';
import { Alert, LinkState, StepHeading } from './parts';
import { REPLACEMENT_ACCEPT, changeProblem, percentSent, photosToShow, refusalOf, replacementType, uploadNewPhotos, type ApplicantPhoto, type NewPhoto } from './replacements';
import './identity.css';

type Load =
  | { at: 'loading' }
  /** `open`: the link still works and photos are asked for (read once, when the answer came). */
  | { at: 'ready'; status: IdentityStatus; open: boolean }
  | { at: 'failed'; problem: Problem }
  | { at: 'sent'; status: IdentityStatus };

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;

/**
 * /founding/photos#token=... (the link of the "replace your photos" email, docs/identity.md): the
 * application's photos, those not usable first with what is wrong with each; the applicant picks
 * photos to remove and adds new JPEG or PNG photos, which are uploaded with progress and sent;
 * the photos are then checked again.
 */
export function ReplacePhotosPage() {
  usePageTitle('Replace your photos');
  const { apiUrl, contactEmail } = useConfig();
  const token = tokenFromHash(useLocation().hash);
  const api = useMemo(() => identityApi({ apiUrl }), [apiUrl]);
  const [load, setLoad] = useState<Load>({ at: 'loading' });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    if (!token) return undefined;
    let live = true;
    api.status(token).then(
      (status) => {
        if (!live) return;
        // Photos asked for, but none listed: an answer the page cannot act on.
        if (status.state === 'awaiting-photos' && !status.photoList) return setLoad({ at: 'failed', problem: { kind: 'retry', text: PROBLEM_TEXTS.unreadable, fields: {} } });
        const open = status.state === 'awaiting-photos' && (!status.replaceBy || Date.parse(status.replaceBy) > Date.now());
        setLoad({ at: 'ready', status, open });
      },
      (err: unknown) => live && setLoad({ at: 'failed', problem: problemOf(err, 'photos', contactEmail) }),
    );
    return () => {
      live = false;
    };
  }, [api, token, contactEmail, reloads]);

  const retry = () => {
    setLoad({ at: 'loading' });
    setReloads((n) => n + 1);
  };
  let body;
  if (!token || load.at === 'loading' || load.at === 'failed') {
    // Why there is nothing to show yet.
    body = <LinkState name="photos" token={token} loading="Loading your photos…" pending={load.at === 'loading'} problem={load.at === 'failed' ? load.problem : undefined} onRetry={retry} />;
  } else if (load.at === 'sent') {
    body = <Sent status={load.status} />;
  } else if (!load.open) {
    body = <NothingToReplace status={load.status} contactEmail={contactEmail} />;
  } else {
    body = (
      <ReplaceForm
        status={load.status}
        onSent={(status) => setLoad({ at: 'sent', status })}
        onLinkLost={(problem) => setLoad({ at: 'failed', problem })}
        send={(photos, onPhoto, remove) =>
          uploadNewPhotos({ api, token, photos, onPhoto }).then((keys) => api.submitReplacements({ token, remove, keys }))
        }
        contactEmail={contactEmail}
      />
    );
  }

  return (
    <div className="container idv idv--wide" data-testid="photos-page">
      <header className="idv-head">
        <p className="eyebrow">Your talent application</p>
        <h1>Replace your photos</h1>
      </header>
      {body}
      <p className="idv-footer">
        Questions? Write to <a href={`mailto:${contactEmail}`}>{contactEmail}</a>. How to take good photos:{' '}
        <Link to="/training-image-best-practices-founders">the photo guide</Link>.
      </p>
    </div>
  );
}

function ReplaceForm({
  status,
  send,
  onSent,
  onLinkLost,
  contactEmail,
}: {
  status: IdentityStatus;
  send: (photos: readonly NewPhoto[], onPhoto: (id: string, change: Partial<NewPhoto>) => void, remove: number[]) => Promise<IdentityStatus>;
  onSent: (status: IdentityStatus) => void;
  onLinkLost: (problem: Problem) => void;
  contactEmail: string;
}) {
  const list = useMemo(() => photosToShow(status.photoList ?? []), [status.photoList]);
  const toReplace = list.filter((p) => !p.usable);
  const usable = list.filter((p) => p.usable);
  const counts = status.photos ?? { total: list.length, usable: usable.length, needed: 0 };
  const [remove, setRemove] = useState<ReadonlySet<number>>(() => new Set());
  const [photos, setPhotos] = useState<NewPhoto[]>([]);
  const [previews, setPreviews] = useState<ReadonlyMap<string, string>>(() => new Map());
  const [skipped, setSkipped] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const [alert, setAlert] = useState<{ text: string; n: number }>();
  const say = (text: string) => setAlert((last) => ({ text, n: (last?.n ?? 0) + 1 }));
  const nextId = useRef(0);
  const previewsRef = useRef(previews);
  useEffect(() => {
    previewsRef.current = previews;
  }, [previews]);
  useEffect(() => () => previewsRef.current.forEach((url) => URL.revokeObjectURL(url)), []);

  const removedUsable = usable.filter((p) => remove.has(p.index)).length;
  const shortfall = Math.max(0, counts.needed + removedUsable - photos.length);
  const target = counts.usable + counts.needed;

  function toggle(index: number) {
    setRemove((set) => {
      const next = new Set(set);
      if (!next.delete(index)) next.add(index);
      return next;
    });
  }

  function pick(e: ChangeEvent<HTMLInputElement>) {
    const files = [...(e.target.files ?? [])];
    e.target.value = '';
    const refused: string[] = [];
    const added: NewPhoto[] = [];
    const urls = new Map(previews);
    for (const file of files) {
      const refusal = refusalOf(file);
      if (refusal) {
        refused.push(refusal);
        continue;
      }
      const id = `new-${nextId.current++}`;
      added.push({ id, file, contentType: replacementType(file)!, loaded: 0 });
      urls.set(id, URL.createObjectURL(file));
    }
    setSkipped(refused);
    setPreviews(urls);
    setPhotos((list) => [...list, ...added]);
    setAlert(undefined);
  }

  function drop(id: string) {
    const url = previews.get(id);
    if (url) URL.revokeObjectURL(url);
    setPreviews((map) => {
      const next = new Map(map);
      next.delete(id);
      return next;
    });
    setPhotos((list) => list.filter((p) => p.id !== id));
  }

  const patch = (id: string, change: Partial<NewPhoto>) => setPhotos((list) => list.map((p) => (p.id === id ? { ...p, ...change } : p)));

  async function submit() {
    const problem = changeProblem({ total: counts.total, remove: remove.size, added: photos.length });
    if (problem) return say(problem);
    setAlert(undefined);
    setSending(true);
    try {
      onSent(await send(photos, patch, [...remove].sort((a, b) => a - b)));
    } catch (err) {
      const problem = problemOf(err, 'photos', contactEmail);
      if (problem.kind === 'link') return onLinkLost(problem);
      say(placeFields(problem, []).alert);
      setSending(false);
    }
  }

  const sent = percentSent(photos);

  return (
    <>
      <section className="card idv-step" aria-labelledby="idv-replace-title" data-testid="replace-summary">
        <StepHeading id="idv-replace-title">Your photos</StepHeading>
        <p className="idv-counts" data-testid="photo-counts">
          {photoCountText(counts)}
        </p>
        {status.replaceBy && (
          <p data-testid="replace-by">
            This link works until <strong>{untilText(status.replaceBy)}</strong>. The review of your application starts once you
            have sent your photos.
          </p>
        )}
        <p className="idv-hint">Tick the photos you want to remove, add new ones below, then send them. Only JPEG and PNG photos, up to 25 MB each.</p>
      </section>

      {toReplace.length > 0 && (
        <PhotoGroup
          title={`To replace (${toReplace.length})`}
          id="idv-to-replace"
          photos={toReplace}
          remove={remove}
          onToggle={toggle}
          disabled={sending}
        />
      )}
      {usable.length > 0 && (
        <PhotoGroup title={`Usable (${usable.length})`} id="idv-usable" photos={usable} remove={remove} onToggle={toggle} disabled={sending} />
      )}

      <section className="card idv-step" aria-labelledby="idv-new-title" data-testid="new-photos">
        <h2 id="idv-new-title" className="idv-step__title">
          New photos
        </h2>
        <p aria-live="polite" data-testid="replace-plan">
          {remove.size > 0 && `${remove.size} ${remove.size === 1 ? 'photo' : 'photos'} to remove. `}
          {photos.length} new {photos.length === 1 ? 'photo' : 'photos'}.{' '}
          {shortfall > 0
            ? `Add at least ${shortfall} more to reach ${target} usable photos.`
            : `If every new photo passes the check, you will have the ${target} usable photos needed.`}
        </p>
        <div className="idv-picker">
          <input
            id="idv-new-photos"
            className="idv-picker__input"
            type="file"
            accept={REPLACEMENT_ACCEPT}
            multiple
            onChange={pick}
            disabled={sending}
            data-testid="new-photos-input"
          />
          <label htmlFor="idv-new-photos" className="button button--secondary">
            Choose photos
          </label>
        </div>
        {skipped.length > 0 && (
          <Alert testId="skipped-files">
            <p>Not added:</p>
            <ul>
              {skipped.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          </Alert>
        )}
        {photos.length > 0 && (
          <ul className="idv-new-list" aria-label="New photos">
            {photos.map((p) => (
              <li key={p.id} className="idv-new">
                <img src={previews.get(p.id)} alt="" className="idv-new__thumb" />
                <span className="idv-new__name">
                  {p.file.name}
                  <span className="idv-hint">
                    {megabytes(p.file.size)}
                    {p.key ? ' · sent' : ''}
                  </span>
                  {p.error && <span className="idv-new__error">{p.error}</span>}
                </span>
                <button type="button" className="idv-link-button" onClick={() => drop(p.id)} disabled={sending} aria-label={`Remove ${p.file.name}`}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        {alert && (
          <Alert key={alert.n} testId="replace-alert">
            {alert.text}
          </Alert>
        )}
        {sending && <Progress percent={sent} />}
        <p role="status" className="sr-only">
          {sending ? `Sending ${photos.length} ${photos.length === 1 ? 'photo' : 'photos'}…` : ''}
        </p>
        <button type="button" className="button button--primary" onClick={submit} disabled={sending} data-testid="send-photos">
          {sending ? 'Sending…' : 'Send my photos'}
        </button>
      </section>
    </>
  );
}

/** The upload's progress bar; it takes the focus from the send button, which is disabled while it runs. */
function Progress({ percent }: { percent: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} className="idv-progress" tabIndex={-1}>
      <label htmlFor="idv-progress">Sending your photos: {percent}%</label>
      <progress id="idv-progress" max={100} value={percent} data-testid="upload-progress" />
    </div>
  );
}

function PhotoGroup({
  title,
  id,
  photos,
  remove,
  onToggle,
  disabled,
}: {
  title: string;
  id: string;
  photos: readonly ApplicantPhoto[];
  remove: ReadonlySet<number>;
  onToggle: (index: number) => void;
  disabled: boolean;
}) {
  return (
    <section className="card idv-step" aria-labelledby={id}>
      <h2 id={id} className="idv-step__title">
        {title}
      </h2>
      <ul className="idv-photos bare-list" data-testid={`${id}-list`}>
        {photos.map((p) => (
          <li key={p.index} className={`idv-photo${p.usable ? '' : ' idv-photo--bad'}${remove.has(p.index) ? ' is-removed' : ''}`}>
            <img src={p.thumbnailUrl} alt={`Photo ${p.index + 1}`} className="idv-photo__thumb" loading="lazy" />
            {p.findings.length > 0 && (
              <ul className="idv-photo__findings">
                {p.findings.map((f) => (
                  <li key={f.code}>{f.message}</li>
                ))}
              </ul>
            )}
            <label className="checkbox idv-photo__remove">
              <input type="checkbox" checked={remove.has(p.index)} onChange={() => onToggle(p.index)} disabled={disabled} data-testid={`remove-photo-${p.index}`} />
              <span>Remove photo {p.index + 1}</span>
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}

function NothingToReplace({ status, contactEmail }: { status: IdentityStatus; contactEmail: string }) {
  const expired = status.state === 'awaiting-photos';
  return (
    <section className="card idv-step" aria-labelledby="idv-nothing-title" data-testid="nothing-to-replace">
      <StepHeading id="idv-nothing-title">{expired ? 'This link has expired' : 'Nothing to replace now'}</StepHeading>
      <p>
        {expired
          ? `The time to replace your photos ended${status.replaceBy ? ` on ${untilText(status.replaceBy)}` : ''}. Write to ${contactEmail} and we will help you with your application.`
          : status.state === 'checking'
            ? 'Your photos are being checked. We email you the result, and a new link if some photos still need replacing.'
            : 'Your photos need no replacing. We email you when the review of your application is done.'}
      </p>
    </section>
  );
}

function Sent({ status }: { status: IdentityStatus }) {
  return (
    <section className="card idv-step idv-done" aria-labelledby="idv-sent-title" data-testid="photos-sent">
      <StepHeading id="idv-sent-title">Thank you{status.firstName ? `, ${status.firstName}` : ''}: your photos are being checked again</StepHeading>
      <p role="status">
        We check every photo again and email you the result. If some photos still cannot be used, the email lists them with a new
        link; otherwise the review of your application starts.
      </p>
    </section>
  );
}
