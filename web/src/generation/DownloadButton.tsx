import { useState } from 'react';
import { Icon } from '../components/Icon';
import './DownloadButton.css';
import type { GenerationApi } from './api';

/**
 * A real download of a delivered image: asks for a short-lived URL to the original file
 * (`GET /licenses/{id}/download`, owner only) and goes to it; the file is served as an attachment
 * named after the talent and the license, so the page stays where it is.
 */
export function DownloadButton({ api, licenseId, label, className = '' }: { api: Pick<GenerationApi, 'download'>; licenseId: string; label: string; className?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function download() {
    setBusy(true);
    setError('');
    try {
      const { url } = await api.download(licenseId);
      window.location.assign(url);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The download could not start. Try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className={`download ${className}`}>
      <button type="button" className="download__button" onClick={() => void download()} disabled={busy} aria-label={label} data-testid="download">
        <Icon name="download" size={18} /> {busy ? 'Preparing…' : 'Download'}
      </button>
      {error && (
        <span className="download__error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
