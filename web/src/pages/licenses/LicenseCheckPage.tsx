import { useId, useMemo, useRef, useState, type DragEvent } from 'react';
import type { PublicLicense } from '../../../../events/generations';
import { Icon } from '../../components/Icon';
import { useConfig } from '../../config';
import { LicenseNotFoundError, generationApi } from '../../generation/api';
import { MAX_CHECK_BYTES, licenseInFile } from '../../generation/xmp';
import { usePageTitle } from '../../lib/usePageTitle';
import { LicenseCard } from './LicenseCard';
import './LicensePages.css';

type Result =
  | { kind: 'idle' }
  | { kind: 'reading'; name: string }
  | { kind: 'found'; name: string; license: PublicLicense }
  | { kind: 'problem'; name?: string; title: string; body: string };

/**
 * /licenses/check (docs/product.md#license-check): drop or choose an image; the browser reads the
 * license id from the file's XMP and shows that license. The file is read here and never sent.
 */
export function LicenseCheckPage() {
  usePageTitle('Check an image license');
  const id = useId();
  const { apiUrl } = useConfig();
  const api = useMemo(() => generationApi({ apiUrl }), [apiUrl]);
  const [result, setResult] = useState<Result>({ kind: 'idle' });
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef(0);

  async function check(file: File) {
    const run = ++latest.current;
    const name = file.name;
    const show = (r: Result) => run === latest.current && setResult(r);
    if (file.size > MAX_CHECK_BYTES) {
      return show({ kind: 'problem', name, title: 'This file is too large to check', body: 'Images we deliver are a few megabytes; choose the file you downloaded.' });
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
        show({ kind: 'found', name, license: await api.license(found.licenseId) });
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

  function dropped(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) void check(file);
  }

  return (
    <div className="licenses" data-testid="license-check-page">
      <section className="page-hero licenses-hero" aria-labelledby="check-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">License check</p>
          <h1 id="check-title">Check an image license</h1>
          <p className="lead">Every image made on our marketplace carries its license inside the file. Drop one here to see it.</p>
        </div>
      </section>
      <div className="container licenses__body">
        <div
          className={`card license-drop${over ? ' license-drop--over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={dropped}
          data-testid="license-drop"
        >
          <Icon name="license" size={36} />
          <p className="license-drop__title">Drop an image here</p>
          <p className="license-drop__or">or</p>
          <label className="button button--primary license-drop__choose" htmlFor={`${id}-file`}>
            Choose an image
          </label>
          <input
            ref={input}
            id={`${id}-file`}
            className="sr-only"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            aria-describedby={`${id}-privacy`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void check(file);
              e.target.value = '';
            }}
          />
          <p id={`${id}-privacy`} className="license-drop__privacy">
            <Icon name="shield" size={16} /> No upload: the file is read in your browser and never leaves your device. Only the
            license id is looked up.
          </p>
        </div>

        <div aria-live="polite" className="licenses__result" data-testid="license-check-result">
          {result.kind === 'reading' && (
            <p className="card licenses-message" role="status">
              Reading {result.name}…
            </p>
          )}
          {result.kind === 'found' && (
            <>
              <p className="licenses__file">
                <Icon name="check" size={18} /> {result.name} carries this license:
              </p>
              <LicenseCard license={result.license} />
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
