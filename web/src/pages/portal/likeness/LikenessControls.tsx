import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Likeness } from '../../../../../events/accounts';
import type { LikenessStatus } from '../../../../../events/likeness';
import { REMOVAL_CANCELLED_MESSAGE } from '../../../../../events/royalty-values';
import { Icon } from '../../../components/Icon';
import { useConfig } from '../../../config';
import type { SignedIn } from '../PortalGate';
import { likenessApi } from './api';
import { RemovalDialog } from './RemovalDialog';
import './LikenessControls.css';
import { saveFile } from '../../../lib/saveFile';
import { Loaded } from '../../../components/Loading';
import { errorText } from '../../../lib/errorText';
import { useAccountQuery } from '../../../lib/query';

/** "25 December 2026, 10:00 UTC": a removal's date, as the emails state it. */
function whenText(iso: string): string {
  const at = new Date(iso);
  const day = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
  return `${day}, ${time} UTC`;
}

const dayText = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The likeness's state in words: a label for the chip and what it means. */
function stateText(status: LikenessStatus): { label: string; body: string } {
  if (status.state === 'removed') {
    return {
      label: 'Removed',
      body: `Your likeness was removed${status.removedAt ? ` on ${whenText(status.removedAt)}` : ''}. Nobody can generate images with it; licenses already issued stay valid.`,
    };
  }
  if (status.frozen) {
    const starting = Date.parse(status.frozen.startsAt) > Date.now();
    return {
      label: starting ? 'Exclusive contract starting' : 'Under exclusive contract',
      body: `Your likeness ${starting ? `will be under an exclusive contract with ${status.frozen.brandName} from ${dayText(status.frozen.startsAt)}` : `is under an exclusive contract with ${status.frozen.brandName}`} until ${dayText(status.frozen.until)}. Only that brand can generate with it, and it is not shown in the Talent Library. You cannot request removal until the contract ends.`,
    };
  }
  if (status.state === 'removal-pending' && status.removal) {
    return {
      label: `Removal on ${dayText(status.removal.effectiveAt)}`,
      body: `Your likeness will be removed on ${whenText(status.removal.effectiveAt)}. Until then it stays in the marketplace${status.paused ? ' (paused)' : ''}, and you can cancel the removal.`,
    };
  }
  if (status.state === 'paused') {
    return { label: 'Paused', body: 'Nobody can generate new images with your likeness until you resume. Licenses already issued stay valid.' };
  }
  return { label: 'Available', body: 'Clients can generate images with your likeness, within the industries you allow.' };
}

type Busy = 'pause' | 'cancel' | 'export' | undefined;

/** The likeness controls' card (lazy: LikenessControlsSection). */
export default function LikenessControls({ auth, likeness }: { auth: SignedIn; likeness: Likeness }) {
  const id = useId();
  const { apiUrl } = useConfig();
  const api = useMemo(() => likenessApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const [query, setStatus] = useAccountQuery('likeness-status', () => api.status());
  const status = query.data;
  const [busy, setBusy] = useState<Busy>();
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState('');
  const [dialogOpen, setDialogOpen] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  // Where the focus goes once the dialog has closed (while it is open, the page behind is inert).
  const focusAfterDialog = useRef<'request' | 'cancel'>(undefined);
  useEffect(() => {
    if (dialogOpen || !focusAfterDialog.current) return;
    (focusAfterDialog.current === 'cancel' ? (cancelButton.current ?? removeButton.current) : removeButton.current)?.focus();
    focusAfterDialog.current = undefined;
  }, [dialogOpen]);

  const act = async (what: Exclude<Busy, undefined>, call: () => Promise<LikenessStatus>, done: (s: LikenessStatus) => string) => {
    setBusy(what);
    setError(undefined);
    setMessage('');
    try {
      const next = await call();
      setStatus(next);
      setMessage(done(next));
    } catch (err) {
      setError(errorText(err, 'That did not work. Try again.'));
      // What stands may have changed (a contract, the notice ended): show it.
      void api.status().then(setStatus, () => undefined);
    } finally {
      setBusy(undefined);
    }
  };

  const download = async () => {
    setBusy('export');
    setError(undefined);
    setMessage('');
    try {
      const { filename, blob } = await api.exportData();
      saveFile(filename, blob);
      setMessage(`Your data was downloaded as ${filename}.`);
    } catch (err) {
      setError(errorText(err, 'Your data could not be downloaded. Try again.'));
    } finally {
      setBusy(undefined);
    }
  };

  const title = (
    <h2 id={`${id}-title`} className="acct-card__title">
      <Icon name="shield" size={20} /> Likeness controls
    </h2>
  );

  if (!status) {
    return (
      <section className="card acct-card" aria-labelledby={`${id}-title`} aria-busy={!query.isError} data-testid="likeness-controls">
        {title}
        <Loaded query={query} loading="Loading your likeness controls…" failed="Your likeness controls could not be loaded.">
          {() => null}
        </Loaded>
      </section>
    );
  }

  const text = stateText(status);
  const removed = status.state === 'removed';
  return (
    <section className="card acct-card likeness-controls" aria-labelledby={`${id}-title`} data-testid="likeness-controls">
      {title}
      <p className="acct-status">
        <span className={`acct-status__chip likeness-chip likeness-chip--${status.frozen && !removed ? 'frozen' : status.state}`} data-testid="likeness-state">
          {text.label}
        </span>
      </p>
      <p data-testid="likeness-state-text">{text.body}</p>

      <div className="acct-actions likeness-controls__actions">
        {!removed &&
          (status.paused ? (
            <button type="button" className="button button--ghost" disabled={busy !== undefined} onClick={() => void act('pause', api.resume, () => 'Resumed. Clients can generate with your likeness again.')}>
              {busy === 'pause' ? 'Resuming…' : 'Resume new generations'}
            </button>
          ) : (
            <button type="button" className="button button--ghost" disabled={busy !== undefined} onClick={() => void act('pause', api.pause, () => 'Paused. Nobody can generate new images with your likeness until you resume.')}>
              {busy === 'pause' ? 'Pausing…' : 'Pause new generations'}
            </button>
          ))}
        {status.canRequestRemoval && (
          <button ref={removeButton} type="button" className="button button--secondary likeness-remove" disabled={busy !== undefined} onClick={() => setDialogOpen(true)}>
            Request removal
          </button>
        )}
        {status.state === 'removal-pending' && (
          <button ref={cancelButton} type="button" className="button button--primary" disabled={busy !== undefined} onClick={() => void act('cancel', api.cancelRemoval, () => REMOVAL_CANCELLED_MESSAGE)}>
            {busy === 'cancel' ? 'Cancelling…' : 'Cancel removal'}
          </button>
        )}
        <button type="button" className="button button--ghost" disabled={busy !== undefined} onClick={() => void download()}>
          <Icon name="download" size={18} /> {busy === 'export' ? 'Preparing your data…' : 'Download my data (JSON)'}
        </button>
      </div>
      <p className="acct-muted likeness-controls__hint">
        Your data: your profile, your application (without the photos), every license of your likeness (never the clients’ prompts)
        and your statements.
      </p>

      <p className="acct-error" role="alert" data-testid="likeness-error">
        {error}
      </p>
      <p className="acct-saved" role="status" data-testid="likeness-message">
        {message}
      </p>

      {dialogOpen && (
        <RemovalDialog
          founding={status.likeness.founding || likeness.founding}
          request={(accept) => api.requestRemoval(accept)}
          onDone={(next) => {
            focusAfterDialog.current = 'cancel';
            setDialogOpen(false);
            setStatus(next);
            setError(undefined);
            setMessage(next.removal ? `Removal requested. It takes effect on ${whenText(next.removal.effectiveAt)}; you can cancel it until then. We emailed you the details.` : 'Removal requested.');
          }}
          onClose={() => {
            focusAfterDialog.current = 'request';
            setDialogOpen(false);
          }}
        />
      )}
    </section>
  );
}
