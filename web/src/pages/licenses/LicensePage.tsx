import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { PublicLicense } from '../../../../events/generations';
import { VERIFY_PATH } from '../../../../events/content-credentials';
import { LICENSE_CHECK_PATH } from '../../../../events/generation-values';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import { LICENSE_NOT_FOUND_MESSAGE, LicenseNotFoundError, generationApi } from '../../generation/api';
import { usePageTitle } from '../../lib/usePageTitle';
import { LicenseCard } from './LicenseCard';
import './LicensePages.css';

type Answer = { kind: 'found'; license: PublicLicense } | { kind: 'not-found' } | { kind: 'error'; message: string };
type State = { kind: 'loading' } | Answer;

/** /licenses/:id (docs/product.md#licenses): anyone can confirm a license; the prompt is never shown. */
export function LicensePage() {
  const { id = '' } = useParams();
  const { apiUrl } = useConfig();
  const api = useMemo(() => generationApi({ apiUrl }), [apiUrl]);
  // The answer for one id and attempt; anything else is still loading.
  const [answer, setAnswer] = useState<{ key: string; answer: Answer }>();
  const [attempt, setAttempt] = useState(0);
  const key = `${id}#${attempt}`;
  const state: State = answer?.key === key ? answer.answer : { kind: 'loading' };
  usePageTitle(state.kind === 'not-found' ? LICENSE_NOT_FOUND_MESSAGE : 'License');

  useEffect(() => {
    let current = true;
    const done = (a: Answer) => current && setAnswer({ key, answer: a });
    api.license(id).then(
      (license) => done({ kind: 'found', license }),
      (err: unknown) => {
        if (err instanceof LicenseNotFoundError) done({ kind: 'not-found' });
        else done({ kind: 'error', message: err instanceof Error ? err.message : 'The license could not be loaded.' });
      },
    );
    return () => {
      current = false;
    };
  }, [api, id, key]);

  return (
    <div className="licenses" data-testid="license-page">
      <section className="page-hero licenses-hero" aria-labelledby="license-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">License check</p>
          <h1 id="license-title">{state.kind === 'not-found' ? LICENSE_NOT_FOUND_MESSAGE : 'Image license'}</h1>
          <p className="lead">Every image made on our marketplace carries a license for commercial use, confirmed here.</p>
        </div>
      </section>
      <div className="container licenses__body" aria-live="polite">
        {state.kind === 'loading' && (
          <p className="card licenses-message" role="status">
            Checking the license…
          </p>
        )}
        {state.kind === 'found' && <LicenseCard license={state.license} thumbnailUrl={api.thumbnailUrl(state.license.id)} />}
        {state.kind === 'not-found' && (
          <div className="card licenses-message" data-testid="license-not-found">
            <p>
              No license has the id <strong className="license-facts__id">{id}</strong>. Check that the address was copied whole, or
              read the license straight from the image file.
            </p>
          </div>
        )}
        {state.kind === 'error' && (
          <div className="card licenses-message" role="alert">
            <p>{state.message}</p>
            <button type="button" className="button button--secondary" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          </div>
        )}
        <p className="licenses__more">
          <Icon name="shield" size={18} /> Have the image file? <Link to={LICENSE_CHECK_PATH}>Check its license from the file</Link>, or{' '}
          <Link to={VERIFY_PATH}>verify its Content Credentials</Link>
        </p>
      </div>
    </div>
  );
}
