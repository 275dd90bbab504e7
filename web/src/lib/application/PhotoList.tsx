import { MAX_APPLICATION_IMAGES, MIN_APPLICATION_IMAGES } from '../../../../events/founding-values';
import { countImages, percent, type SelectedPhoto } from './photos';

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <span className="upload-bar" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <span className="upload-bar__fill" style={{ width: `${value}%` }} />
    </span>
  );
}

/** Total bytes sent of everything picked (uploaded files count in full). */
export function totalProgress(photos: readonly SelectedPhoto[]): number {
  const total = photos.reduce((n, p) => n + p.file.size, 0);
  const sent = photos.reduce((n, p) => n + (p.key ? p.file.size : p.loaded), 0);
  return percent(sent, total);
}

interface PhotoListProps {
  countId: string;
  skipped: readonly string[];
  photos: readonly SelectedPhoto[];
  busy: boolean;
  onRemove: (id: string) => void;
  onRetry: (id: string) => void;
}

/** Thumbnails of the picked files, each with its upload progress, a retry when it failed, and remove. */
export default function PhotoList({ countId, skipped, photos, busy, onRemove, onRetry }: PhotoListProps) {
  const started = photos.some((p) => p.status !== 'ready');
  const uploaded = photos.filter((p) => p.key).length;
  const images = countImages(photos);
  const counting = photos.some((p) => p.images === null);
  return (
    <div className="photo-list" data-testid="photo-list">
      <p id={countId} className="photo-picker__count" aria-live="polite" data-testid="image-count">
        <strong>
          {images} {images === 1 ? 'image' : 'images'} selected
        </strong>
        {counting ? ' (counting the photos in your zip…)' : ` of ${MIN_APPLICATION_IMAGES}-${MAX_APPLICATION_IMAGES}`}
      </p>
      {skipped.length > 0 && (
        <p className="photo-picker__skipped" role="status">
          Skipped {skipped.join(', ')}: only .jpg, .jpeg, .png or .zip files can be added.
        </p>
      )}
      {started && (
        <div className="photo-list__total">
          <span>
            {uploaded} of {photos.length} files uploaded
          </span>
          <ProgressBar value={totalProgress(photos)} label="Total upload progress" />
        </div>
      )}
      <ul className="photo-grid" aria-label="Selected files">
        {photos.map((p) => (
          <li key={p.id} className={`photo-tile photo-tile--${p.status}`} data-testid="photo-tile">
            {p.preview ? (
              <img src={p.preview} alt="" className="photo-tile__thumb" decoding="async" loading="lazy" />
            ) : (
              <span className="photo-tile__thumb photo-tile__thumb--zip" aria-hidden="true">
                ZIP
              </span>
            )}
            <span className="photo-tile__name" title={p.file.name}>
              {p.file.name}
            </span>
            <span className="photo-tile__meta">
              {p.zip ? (p.images === null ? 'Counting…' : `${p.images} ${p.images === 1 ? 'photo' : 'photos'} · `) : ''}
              {size(p.file.size)}
            </span>
            {p.status !== 'ready' && (
              <ProgressBar value={p.key ? 100 : percent(p.loaded, p.file.size)} label={`Upload of ${p.file.name}`} />
            )}
            {p.status === 'uploaded' && <span className="photo-tile__state">Uploaded</span>}
            {p.error && (
              <span className="photo-tile__error" data-testid="photo-error">
                {p.error}
              </span>
            )}
            {p.status === 'failed' && (
              <button type="button" className="photo-tile__retry" onClick={() => onRetry(p.id)} disabled={busy} aria-label={`Retry uploading ${p.file.name}`}>
                Retry
              </button>
            )}
            <button type="button" className="photo-tile__remove" onClick={() => onRemove(p.id)} disabled={busy} aria-label={`Remove ${p.file.name}`}>
              <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
                <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
