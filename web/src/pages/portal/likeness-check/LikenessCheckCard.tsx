import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { LikenessCheckResult } from '../../../../../events/reports';
import { MATCH_METHOD_LABELS, NOT_OURS_MESSAGE, REPORT_PATH, takedownNotice } from '../../../../../events/report-values';
import { BRAND_NAME } from '../../../brand';
import { Facts } from '../../../components/Facts';
import { FieldError } from '../../../components/FormField';
import { Icon } from '../../../components/Icon';
import { useConfig } from '../../../config';
import { errorText } from '../../../lib/errorText';
import { fileTooLarge, ReportFieldsError, signedInReportApi } from '../../../lib/report-api';
import { saveFile } from '../../../lib/saveFile';
import type { SignedIn } from '../PortalGate';
import './LikenessCheckCard.css';

type Checked = { result: LikenessCheckResult; source: { kind: 'file'; name: string } | { kind: 'url'; url: string } };
type State = { kind: 'idle' } | { kind: 'checking'; what: string } | { kind: 'checked'; checked: Checked } | { kind: 'failed'; message: string };

/** "29 November 2026" (UTC, as licenses are dated). */
const dayOf = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

const isWebAddress = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/**
 * "Is this me?" in the talent portal (docs/product.md#reports-and-takedown): the talent sends an
 * image file or an image's URL; the answer says whether it is a licensed image of ours (which
 * license, which client, when, and whether it is their likeness) or not ours, and offers a report
 * to us, prefilled, or a takedown notice to send to the site that shows it.
 */
export function LikenessCheckCard({ auth }: { auth: SignedIn }) {
  const id = useId();
  const { apiUrl } = useConfig();
  const api = useMemo(() => signedInReportApi({ apiUrl, getIdToken: auth.getIdToken }), [apiUrl, auth.getIdToken]);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string>();
  const latest = useRef(0);
  const result = useRef<HTMLDivElement>(null);

  async function run(what: string, source: Checked['source'], check: () => Promise<LikenessCheckResult>) {
    const attempt = ++latest.current;
    setState({ kind: 'checking', what });
    try {
      const answer = await check();
      if (attempt === latest.current) setState({ kind: 'checked', checked: { result: answer, source } });
    } catch (err) {
      if (attempt !== latest.current) return;
      if (err instanceof ReportFieldsError && source.kind === 'url') {
        setState({ kind: 'idle' });
        setUrlError(`This address ${Object.values(err.fields)[0]?.replace(/^url\s+/, '') ?? 'cannot be checked'}.`);
      } else setState({ kind: 'failed', message: errorText(err, 'The image could not be checked. Try again in a moment.') });
    }
    result.current?.focus();
  }

  function chooseFile(file: File | undefined) {
    if (!file) return;
    setUrlError(undefined);
    const tooLarge = fileTooLarge(file);
    if (tooLarge) return setState({ kind: 'failed', message: tooLarge });
    void run(file.name, { kind: 'file', name: file.name }, () => api.checkFile(file));
  }

  function checkUrl(event: FormEvent) {
    event.preventDefault();
    const value = url.trim();
    if (!isWebAddress(value)) {
      setUrlError('Paste the full address of the image, starting with https://.');
      document.getElementById(`${id}-url`)?.focus();
      return;
    }
    setUrlError(undefined);
    void run(value, { kind: 'url', url: value }, () => api.checkUrl(value));
  }

  return (
    <section className="card acct-card likeness-check" aria-labelledby={`${id}-title`} data-testid="likeness-check">
      <h2 id={`${id}-title`} className="acct-card__title">
        <Icon name="search" size={20} /> Is this me?
      </h2>
      <p className="acct-muted">
        Found an image of yourself somewhere? Check whether {BRAND_NAME} made it: we compare it with every image we delivered, even
        resized or re-saved. The image is compared and never stored.
      </p>
      <div className="likeness-check__inputs">
        <div className="likeness-check__file">
          <label className="button button--secondary" htmlFor={`${id}-file`}>
            <Icon name="license" size={18} /> Choose an image
          </label>
          <input
            id={`${id}-file`}
            className="sr-only"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            aria-label="Check an image file"
            onChange={(e) => {
              chooseFile(e.target.files?.[0]);
              e.target.value = '';
            }}
            data-testid="likeness-check-file"
          />
        </div>
        <p className="likeness-check__or" aria-hidden="true">
          or
        </p>
        <form className="likeness-check__url" onSubmit={checkUrl} noValidate>
          <div className={`field${urlError ? ' field--invalid' : ''}`}>
            <label className="field__label" htmlFor={`${id}-url`}>
              The image’s web address
            </label>
            <div className="likeness-check__url-row">
              <input
                id={`${id}-url`}
                className="input"
                type="url"
                inputMode="url"
                placeholder="https://example.com/photo.jpg"
                value={url}
                onChange={(e) => {
                  setUrl(e.target.value);
                  setUrlError(undefined);
                }}
                aria-invalid={urlError ? true : undefined}
                aria-describedby={urlError ? `${id}-url-error` : undefined}
              />
              <button type="submit" className="button button--primary" disabled={state.kind === 'checking'}>
                Check
              </button>
            </div>
            {urlError && <FieldError id={`${id}-url-error`} message={urlError} />}
          </div>
        </form>
      </div>
      <div ref={result} tabIndex={-1} className="likeness-check__result" aria-live="polite" data-testid="likeness-check-result">
        {state.kind === 'checking' && (
          <p role="status" className="likeness-check__progress">
            <progress aria-label={`Checking ${state.what}`} /> Checking {state.what}…
          </p>
        )}
        {state.kind === 'failed' && (
          <p className="acct-error" role="alert">
            {state.message}
          </p>
        )}
        {state.kind === 'checked' && <Answer checked={state.checked} talentName={auth.me.talent?.likeness?.name || auth.me.profile.full_name} />}
      </div>
    </section>
  );
}

function Answer({ checked, talentName }: { checked: Checked; talentName: string }) {
  const { result, source } = checked;
  const id = useId();
  const [where, setWhere] = useState(source.kind === 'url' ? source.url : '');
  const [signer, setSigner] = useState(talentName);
  const [signerError, setSignerError] = useState<string>();
  const [intimate, setIntimate] = useState(false);
  const [whereError, setWhereError] = useState<string>();
  const ours = result.verdict === 'ours';
  const reportLink = `${REPORT_PATH}?${new URLSearchParams({
    ...(ours ? { license: result.licenseId } : {}),
    ...(source.kind === 'url' ? { url: source.url } : {}),
    role: 'talent',
  }).toString()}`;

  function download() {
    const location = where.trim();
    const name = signer.trim();
    const badWhere = isWebAddress(location) ? undefined : 'Give the address where the image is shown: the notice must name it.';
    const badName = name ? undefined : 'Type your full name: it signs the notice.';
    setWhereError(badWhere);
    setSignerError(badName);
    if (badWhere || badName) {
      document.getElementById(badWhere ? `${id}-where` : `${id}-name`)?.focus();
      return;
    }
    const now = new Date().toISOString();
    const text = takedownNotice({ talentName: name, url: location, date: now, intimate });
    saveFile(`takedown-notice-${now.slice(0, 10)}.txt`, new Blob([text], { type: 'text/plain;charset=utf-8' }));
  }

  return (
    <div className="likeness-check__answer" data-testid="likeness-check-answer" data-verdict={result.verdict}>
      {result.verdict === 'ours' ? (
        <div className="likeness-check__verdict likeness-check__verdict--ours">
          <p className="likeness-check__headline">
            <Icon name="license" size={20} />{' '}
            {result.isYou ? 'Yes: a licensed Humanly image of you' : 'A licensed Humanly image, made with another likeness'}
          </p>
          <Facts
            className="likeness-check__facts"
            facts={[
              { term: 'License', value: <Link to={`/licenses/${encodeURIComponent(result.licenseId)}`}>{result.licenseId}</Link>, testId: 'likeness-check-license' },
              { term: 'Client', value: result.clientName, testId: 'likeness-check-client' },
              { term: 'Licensed', value: dayOf(result.licensedAt) },
            ]}
          />
          <p className="acct-muted">
            Found because {MATCH_METHOD_LABELS[result.how]}.
            {result.revokedAt ? ` This license was revoked on ${dayOf(result.revokedAt)}.` : ' If it is used outside its license, report it to us.'}
          </p>
        </div>
      ) : (
        <div className="likeness-check__verdict">
          <p className="likeness-check__headline">{NOT_OURS_MESSAGE}</p>
          <p className="acct-muted">
            We delivered no image like this one. If it shows you without your consent, ask the site that shows it to take it down, and tell
            us too.
          </p>
        </div>
      )}
      <div className="likeness-check__notice">
        <h3 className="likeness-check__notice-title">Ask the other site to take it down</h3>
        <p className="acct-muted">A notice under the EU Digital Services Act, and the US TAKE IT DOWN Act for intimate images, with your name filled in.</p>
        <div className="field-row">
        <div className={`field${whereError ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={`${id}-where`}>
            Where is the image shown?
          </label>
          <input
            id={`${id}-where`}
            className="input"
            type="url"
            inputMode="url"
            placeholder="https://example.com/page-with-the-image"
            value={where}
            onChange={(e) => {
              setWhere(e.target.value);
              setWhereError(undefined);
            }}
            aria-invalid={whereError ? true : undefined}
            aria-describedby={whereError ? `${id}-where-error` : undefined}
          />
          {whereError && <FieldError id={`${id}-where-error`} message={whereError} />}
        </div>
        <div className={`field${signerError ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={`${id}-name`}>
            Your full name, to sign the notice
          </label>
          <input
            id={`${id}-name`}
            className="input"
            autoComplete="name"
            value={signer}
            onChange={(e) => {
              setSigner(e.target.value);
              setSignerError(undefined);
            }}
            aria-invalid={signerError ? true : undefined}
            aria-describedby={signerError ? `${id}-name-error` : undefined}
          />
          {signerError && <FieldError id={`${id}-name-error`} message={signerError} />}
        </div>
        </div>
        <label className="likeness-check__intimate">
          <input type="checkbox" checked={intimate} onChange={(e) => setIntimate(e.target.checked)} /> The image is intimate or sexual
        </label>
        <div className="acct-actions">
          <button type="button" className="button button--primary" onClick={download} data-testid="likeness-check-notice">
            <Icon name="download" size={18} /> Download the takedown notice
          </button>
          <Link to={reportLink} className="button button--ghost" data-testid="likeness-check-report">
            Report it to us
          </Link>
        </div>
      </div>
    </div>
  );
}
