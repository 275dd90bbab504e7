import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { LICENSE_CHECK_PATH, licensePath } from '../../../../events/generation-values';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';
import type { CredentialsReading } from './credentials';
import { ImageDrop } from './ImageDrop';
import type { LicenseCheckAnswer } from './verify-check';
import './LicensePages.css';

type Found = Extract<CredentialsReading, { kind: 'found' }>;
type Result =
  | { kind: 'idle' }
  | { kind: 'reading'; name: string }
  | { kind: 'read'; name: string; credentials: Found; check?: LicenseCheckAnswer }
  | { kind: 'none'; name: string }
  | { kind: 'problem'; name?: string; title: string; body: string };

/**
 * /verify (docs/product.md#content-credentials, decision 062): drop or choose an image; the
 * browser reads its Content Credentials with the Content Authenticity Initiative's own reader
 * (loaded only then), shows who signed them, whether they are intact, and what they say, and for
 * our credentials asks our license check about the same file.
 */
export function VerifyPage() {
  usePageTitle('Verify Content Credentials');
  const { apiUrl } = useConfig();
  const [result, setResult] = useState<Result>({ kind: 'idle' });
  const latest = useRef(0);

  async function verify(file: File) {
    const run = ++latest.current;
    const name = file.name;
    const show = (r: Result) => run === latest.current && setResult(r);
    show({ kind: 'reading', name });
    let credentials: CredentialsReading;
    try {
      const { readCredentials } = await import('./credentials');
      credentials = await readCredentials(file);
    } catch {
      return show({ kind: 'problem', name, title: 'This file could not be read', body: 'The Content Credentials reader could not open it. Choose the image file again.' });
    }
    if (credentials.kind === 'none') return show({ kind: 'none', name });
    show({ kind: 'read', name, credentials });
    const license = credentials.ours ? credentials.license : undefined;
    if (!license) return;
    const check = await import('./verify-check')
      .then((m) => m.checkAgainstLicense(apiUrl, license.licenseId, file))
      .catch((): LicenseCheckAnswer => ({ verdict: 'not-checked', message: 'The file could not be compared with the licensed image right now.' }));
    show({ kind: 'read', name, credentials, check });
  }

  return (
    <div className="licenses" data-testid="verify-page">
      <section className="page-hero licenses-hero" aria-labelledby="verify-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">Content Credentials</p>
          <h1 id="verify-title">Verify an image</h1>
          <p className="lead">
            Every image made on our marketplace carries signed Content Credentials (C2PA): who made it, that it was made by AI, and under
            which license. Drop one here to check them with the Content Authenticity Initiative&apos;s own reader.
          </p>
        </div>
      </section>
      <div className="container licenses__body">
        <ImageDrop
          icon="shield"
          accept="image/png,image/jpeg,image/webp,image/avif,image/heic"
          testId="verify-drop"
          onFile={(file) => void verify(file)}
          privacy="Your browser reads the credentials inside the file. Only a file whose credentials name one of our licenses is sent to us, to compare its pixels with the licensed image; it is not stored."
        />

        <div aria-live="polite" className="licenses__result" data-testid="verify-result">
          {result.kind === 'reading' && (
            <p className="card licenses-message" role="status">
              Reading the Content Credentials of {result.name}…
            </p>
          )}
          {result.kind === 'none' && (
            <div className="card licenses-message licenses-message--problem" data-testid="verify-verdict" data-verdict="none">
              <p className="licenses-message__title">This file carries no Content Credentials</p>
              <p className="licenses__file">{result.name}</p>
              <p>
                Nothing in it says who made it or how. Images from us carry them; a screenshot, an edited or re-saved copy loses them. If
                the file still has its license inside, <Link to={LICENSE_CHECK_PATH}>check its license from the file</Link>.
              </p>
            </div>
          )}
          {result.kind === 'read' && <Reading name={result.name} credentials={result.credentials} check={result.check} />}
          {result.kind === 'problem' && (
            <div className="card licenses-message licenses-message--problem" data-testid="verify-problem">
              <p className="licenses-message__title">{result.title}</p>
              {result.name && <p className="licenses__file">{result.name}</p>}
              <p>{result.body}</p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/** What the credentials say, and our license check's answer for the same file. */
function Reading({ name, credentials, check }: { name: string; credentials: Found; check?: LicenseCheckAnswer }) {
  const { valid, ours, test, signer, createdByAi, license } = credentials;
  const verdict = !valid ? 'tampered' : ours ? 'ours' : 'other';
  return (
    <>
      <div className={`card licenses-message${verdict === 'ours' ? ' licenses-message--match' : ' licenses-message--problem'}`} data-testid="verify-verdict" data-verdict={verdict}>
        <p className="licenses-message__title">
          {verdict === 'ours' && (
            <>
              <Icon name="check" size={20} /> Valid Content Credentials, signed by Humanly{test ? ' with a test certificate' : ''}
            </>
          )}
          {verdict === 'other' && 'Valid Content Credentials, but not ours'}
          {verdict === 'tampered' && 'Tampered: the file changed after its Content Credentials were signed'}
        </p>
        <p className="licenses__file">{name}</p>
        {verdict === 'ours' && <p>The image and its credentials are exactly as we delivered them.</p>}
        {verdict === 'other' && <p>They were signed by {signer}. They say nothing about a license of ours.</p>}
        {verdict === 'tampered' && (
          <p>
            The credentials{ours ? ' we signed' : ''} no longer match the file: its pixels or its credentials were changed. Do not rely on what
            they say.
          </p>
        )}
        {test && <p data-testid="verify-test-certificate">This copy of the site signs with a test certificate: verifiers show it as valid but not trusted.</p>}
      </div>
      {(createdByAi || license) && (
        <div className="card licenses-message" data-testid="verify-claims">
          <p className="licenses-message__title">What the credentials say</p>
          {createdByAi && (
            <p data-testid="verify-made-by">
              Made by AI{license ? ` of ${license.talentName}` : ''}
              {license && (
                <>
                  {' '}
                  under license <Link to={licensePath(license.licenseId)}>{license.licenseId}</Link>
                </>
              )}
              .
            </p>
          )}
          {license && (
            <p>
              Licensed to {license.licensee} on {new Date(license.issuedAt).toLocaleDateString('en', { dateStyle: 'long' })}. Not to be used for AI
              training.
            </p>
          )}
        </div>
      )}
      {license && ours && (
        <div className="card licenses-message" data-testid="verify-license-check" data-verdict={check?.verdict ?? 'checking'}>
          <p className="licenses-message__title">Our license check</p>
          <p>{check ? check.message : 'Comparing the file with the licensed image…'}</p>
        </div>
      )}
    </>
  );
}
