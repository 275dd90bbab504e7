import { useMemo, useRef, useState } from 'react';
import type { PublicLicense } from '../../../../events/generations';
import { LICENSE_CHECK_MAX_BYTES, LICENSE_FILE_MESSAGES, type LicenseFileVerdict } from '../../../../events/license-check';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import { LicenseNotFoundError, generationApi } from '../../generation/api';
import { licenseInFile } from '../../generation/xmp';
import { usePageTitle } from '../../lib/usePageTitle';
import { ImageDrop } from './ImageDrop';
import { LicenseCard } from './LicenseCard';
import './LicensePages.css';

type Result =
  | { kind: 'idle' }
  | { kind: 'reading'; name: string }
  | { kind: 'checked'; name: string; license: PublicLicense; verdict: LicenseFileVerdict }
  | { kind: 'problem'; name?: string; title: string; body: string };

/** What each verdict adds to LICENSE_FILE_MESSAGES, for the person holding the file. */
const VERDICT_DETAIL: Record<LicenseFileVerdict, string> = {
  'licensed-image': 'Its pixels are those of the image this license was issued for.',
  'other-image':
    'The file names this license, but its pixels are not the licensed image: the license was copied onto another image, or the image was edited, resized or re-compressed with loss. Compare it with the licensed image below.',
  'not-comparable': 'The license below is valid, but we cannot tell whether this file is its image.',
};

/**
 * /licenses/check (docs/product.md#license-check, decision 035): drop or choose an image; the
 * browser reads the license id from the file's XMP, then sends the file to that license's check,
 * which compares its pixels with the licensed image: a real license id pasted into another
 * image's metadata does not pass, and the licensed image re-saved without its metadata does.
 */
export function LicenseCheckPage() {
  usePageTitle('Check an image license');
  const { apiUrl } = useConfig();
  const api = useMemo(() => generationApi({ apiUrl }), [apiUrl]);
  const [result, setResult] = useState<Result>({ kind: 'idle' });
  const latest = useRef(0);

  async function check(file: File) {
    const run = ++latest.current;
    const name = file.name;
    const show = (r: Result) => run === latest.current && setResult(r);
    if (file.size > LICENSE_CHECK_MAX_BYTES) {
      return show({
        kind: 'problem',
        name,
        title: 'This file is too large to check',
        body: `The limit is ${LICENSE_CHECK_MAX_BYTES / 1024 / 1024} MB, and the images we deliver are smaller; choose the file you downloaded.`,
      });
    }
    show({ kind: 'reading', name });
    try {
      const found = await licenseInFile(new Uint8Array(await file.arrayBuffer()));
      if (found.kind === 'no-xmp') {
        return show({
          kind: 'problem',
          name,
          title: 'This file carries no license',
          body: 'It has no license information inside. Images downloaded from us carry their license in the file; a screenshot or an edited copy may have lost it.',
        });
      }
      if (found.kind === 'no-license') {
        return show({ kind: 'problem', name, title: 'This file carries no license of ours', body: 'It has image information inside, but no license from our marketplace.' });
      }
      try {
        const checked = await api.checkFile(found.licenseId, file);
        show({ kind: 'checked', name, license: checked.license, verdict: checked.file });
      } catch (err) {
        if (err instanceof LicenseNotFoundError) {
          show({ kind: 'problem', name, title: 'This license is unknown', body: `The file names license ${found.licenseId}, but we issued no license with that id.` });
        } else {
          show({ kind: 'problem', name, title: 'The license could not be checked', body: err instanceof Error ? err.message : 'Try again in a moment.' });
        }
      }
    } catch {
      show({ kind: 'problem', name, title: 'This file could not be read', body: 'Choose the image file again.' });
    }
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
          {result.kind === 'reading' && (
            <p className="card licenses-message" role="status">
              Checking {result.name}…
            </p>
          )}
          {result.kind === 'checked' && (
            <>
              <div
                className={`card licenses-message${result.verdict === 'licensed-image' ? ' licenses-message--match' : ' licenses-message--problem'}`}
                data-testid="license-check-verdict"
                data-verdict={result.verdict}
              >
                <p className="licenses-message__title">
                  {result.verdict === 'licensed-image' && <Icon name="check" size={20} />} {LICENSE_FILE_MESSAGES[result.verdict]}
                </p>
                <p className="licenses__file">{result.name}</p>
                <p>{VERDICT_DETAIL[result.verdict]}</p>
              </div>
              <LicenseCard license={result.license} thumbnailUrl={api.thumbnailUrl(result.license.id)} />
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
