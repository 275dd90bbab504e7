import { useRef, useState } from 'react';
import type { PublicLicense } from '../../../../events/generations';
import type { LicenseFileVerdict } from '../../../../events/license-check';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';
import { ImageDrop } from './ImageDrop';
import type * as CheckerModule from './license-file-check';
import './LicensePages.css';

type Checker = typeof CheckerModule;

/* The reader and the check load with the first file, once (decision 063); a failed load is tried again. */
let checker: Promise<Checker> | undefined;
function loadChecker(): Promise<Checker> {
  checker ??= import('./license-file-check');
  checker.catch(() => (checker = undefined));
  return checker;
}

type Result =
  | { kind: 'idle' }
  | { kind: 'reading'; name: string }
  | { kind: 'checking'; name: string; licenseId: string }
  | {
      kind: 'checked';
      name: string;
      license: PublicLicense;
      verdict: LicenseFileVerdict;
      message: string;
      detail: string;
      thumbnailUrl: string;
      LicenseCard: Checker['LicenseCard'];
    }
  | { kind: 'reader-failed'; file: File }
  | { kind: 'problem'; name?: string; title: string; body: string };

/**
 * /licenses/check (docs/product.md#license-check, decision 035): drop or choose an image; the
 * browser reads the license id from the file's XMP, then sends the file to that license's check,
 * which compares its pixels with the licensed image: a real license id pasted into another
 * image's metadata does not pass, and the licensed image re-saved without its metadata does.
 * The reader and the check's code load when the first file is chosen (decision 063).
 */
export function LicenseCheckPage() {
  usePageTitle('Check an image license');
  const { apiUrl } = useConfig();
  const [result, setResult] = useState<Result>({ kind: 'idle' });
  const latest = useRef(0);

  async function check(file: File) {
    const run = ++latest.current;
    const name = file.name;
    const show = (r: Result) => run === latest.current && setResult(r);
    show({ kind: 'reading', name });
    let reader: Checker;
    try {
      reader = await loadChecker();
    } catch {
      return show({ kind: 'reader-failed', file });
    }
    const found = await reader.readFileLicense(file);
    if (found.kind === 'problem') return show({ ...found, name });
    show({ kind: 'checking', name, licenseId: found.licenseId });
    const checked = await reader.checkFileLicense(apiUrl, found.licenseId, file);
    show(checked.kind === 'problem' ? { ...checked, name } : { ...checked, name, LicenseCard: reader.LicenseCard });
  }

  return (
    <div className="licenses" data-testid="license-check-page">
      <section className="page-hero licenses-hero" aria-labelledby="check-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">License check</p>
          <h1 id="check-title">Check an image license</h1>
          <p className="lead">Every image made on our marketplace carries its license inside the file. Drop one here to see it, and whether the file is the licensed image.</p>
        </div>
      </section>
      <div className="container licenses__body">
        <ImageDrop
          icon="license"
          accept="image/png,image/jpeg,image/webp"
          testId="license-drop"
          onFile={(file) => void check(file)}
          privacy="Your browser reads the license inside the file. Only a file that names one of our licenses is sent to us, to compare its pixels with the licensed image; it is not stored."
        />

        <div aria-live="polite" className="licenses__result" data-testid="license-check-result">
          {(result.kind === 'reading' || result.kind === 'checking') && (
            <div className="card licenses-message" role="status" data-testid="license-check-progress" data-step={result.kind}>
              <p className="licenses-message__title">{result.kind === 'reading' ? 'Reading the image…' : 'Checking the license…'}</p>
              <p className="licenses__file">{result.name}</p>
              <progress className="licenses-progress" aria-label={result.kind === 'reading' ? 'Reading the image' : 'Checking the license'} />
              {result.kind === 'checking' && <p>Comparing the file with the image of license {result.licenseId}.</p>}
            </div>
          )}
          {result.kind === 'reader-failed' && (
            <div className="card licenses-message licenses-message--problem" role="alert" data-testid="license-check-reader-failed">
              <p className="licenses-message__title">The image reader could not load</p>
              <p className="licenses__file">{result.file.name}</p>
              <p>Check your connection and try again; the file has not been read or sent.</p>
              <button type="button" className="button button--secondary" onClick={() => void check(result.file)}>
                Try again
              </button>
            </div>
          )}
          {result.kind === 'checked' && (
            <>
              <div
                className={`card licenses-message${result.verdict === 'licensed-image' ? ' licenses-message--match' : ' licenses-message--problem'}`}
                data-testid="license-check-verdict"
                data-verdict={result.verdict}
              >
                <p className="licenses-message__title">
                  {result.verdict === 'licensed-image' && <Icon name="check" size={20} />} {result.message}
                </p>
                <p className="licenses__file">{result.name}</p>
                <p>{result.detail}</p>
              </div>
              <result.LicenseCard license={result.license} thumbnailUrl={result.thumbnailUrl} />
            </>
          )}
          {result.kind === 'problem' && (
            <div className="card licenses-message licenses-message--problem" data-testid="license-check-problem">
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
