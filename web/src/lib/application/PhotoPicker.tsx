import { lazy, Suspense, useState, type DragEvent } from 'react';
import { LIMITS } from './limits';
import { ACCEPT } from './photos';
import { loadMachinery, type ApplicationUpload } from './useApplicationUpload';
import './application.css';

/* Thumbnails, progress and retry load with the first picked file, not with the page. */
const PhotoList = lazy(() => loadMachinery().then((m) => ({ default: m.PhotoList })));

interface PhotoPickerProps {
  id: string;
  upload: ApplicationUpload;
  /** Retries one failed upload; the form supplies the applicant's email. */
  onRetry: (photoId: string) => void;
}

/**
 * The training-photo picker: a file input (JPEG, PNG or zip, several at once) that is also a
 * drop target, with the count of images selected; the picked files show as thumbnails.
 */
export function PhotoPicker({ id, upload, onRetry }: PhotoPickerProps) {
  const [over, setOver] = useState(false);
  const busy = upload.stage !== null;

  function onDrop(e: DragEvent<HTMLLabelElement>) {
    e.preventDefault();
    setOver(false);
    if (!busy) upload.add(Array.from(e.dataTransfer.files));
  }

  return (
    <div className="photo-picker">
      <label
        htmlFor={id}
        className={`photo-drop${over ? ' photo-drop--over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="photo-drop"
      >
        <span className="photo-drop__icon" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="28" height="28" focusable="false">
            <path d="M12 16V5M7.5 9.5L12 5l4.5 4.5M5 19h14" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <span className="photo-drop__title">
          Choose photos <span className="photo-drop__or">or drag them here</span>
        </span>
        <span className="photo-drop__hint" id={`${id}-hint`}>
          {LIMITS.minImages}-{LIMITS.maxImages} images. Only JPEG or PNG photos are used for training; a zip of
          them works too.
        </span>
      </label>
      <input
        id={id}
        className="photo-drop__input"
        type="file"
        name="photos"
        accept={ACCEPT}
        multiple
        disabled={busy}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          if (e.target.files) upload.add(Array.from(e.target.files));
          e.target.value = ''; // picking the same files again still fires change
        }}
      />
      {(upload.photos.length > 0 || upload.skipped.length > 0) && (
        <Suspense fallback={null}>
          <PhotoList countId={`${id}-count`} photos={upload.photos} skipped={upload.skipped} busy={busy} onRemove={upload.remove} onRetry={onRetry} />
        </Suspense>
      )}
    </div>
  );
}

const SubmissionDialog = lazy(() => loadMachinery().then((m) => ({ default: m.SubmissionDialog })));
const LazyFormAlert = lazy(() => loadMachinery().then((m) => ({ default: m.FormAlert })));

/** An alert only ever follows a check made by the machinery, so its component loads with it. */
export function ApplicationAlert({ message, onDismiss }: { message: string | null; onDismiss: () => void }) {
  if (!message) return null;
  return (
    <Suspense fallback={<p className="form-alert">{message}</p>}>
      <LazyFormAlert message={message} onDismiss={onDismiss} />
    </Suspense>
  );
}

/** The blocking progress dialog, loaded when a submission starts. */
export function SubmissionProgress({ upload }: { upload: ApplicationUpload }) {
  if (!upload.stage) return null;
  return (
    <Suspense fallback={null}>
      <SubmissionDialog stage={upload.stage} photos={upload.photos} />
    </Suspense>
  );
}
