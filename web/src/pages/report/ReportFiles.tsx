import { useEffect, useRef, useState } from 'react';
import { REPORT_FILE_MAX_BYTES, REPORT_FILE_TOO_LARGE_MESSAGE, REPORT_LIMITS } from '../../../../events/report-values';
import { FieldError } from '../../components/FormField';
import { Icon } from '../../components/Icon';
import { errorText } from '../../lib/errorText';
import type { ReportApi } from '../../lib/report-api';
import { MatchAnswer } from './MatchAnswer';
import type { ChosenFile } from './report-draft';

let nextKey = 0;

/**
 * The report's files: each chosen image is sent to `POST /reports/files` at once, with a progress
 * line while it travels, and then shows what it matched ("Made on Humanly: license ..." or
 * "Not made on Humanly"). The report names the sent files by their ids.
 */
export function ReportFiles({
  id,
  api,
  files,
  onChange,
  error,
}: {
  id: string;
  api: ReportApi;
  files: readonly ChosenFile[];
  onChange: (update: (files: readonly ChosenFile[]) => readonly ChosenFile[]) => void;
  error?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const previews = useRef(new Set<string>());
  // The previews' object URLs go with the page.
  useEffect(() => {
    const urls = previews.current;
    return () => urls.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  const room = REPORT_LIMITS.files - files.length;

  function choose(list: FileList | null) {
    const chosen = [...(list ?? [])].slice(0, Math.max(room, 0));
    for (const file of chosen) {
      const key = ++nextKey;
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      const base = { key, name: file.name, preview };
      if (file.size > REPORT_FILE_MAX_BYTES) {
        onChange((all) => [...all, { ...base, state: 'failed', error: REPORT_FILE_TOO_LARGE_MESSAGE }]);
        continue;
      }
      onChange((all) => [...all, { ...base, state: 'sending' }]);
      const settle = (next: ChosenFile) => onChange((all) => all.map((f) => (f.key === key ? next : f)));
      api.uploadFile(file).then(
        (uploaded) => settle({ ...base, state: 'sent', uploaded }),
        (err: unknown) => settle({ ...base, state: 'failed', error: errorText(err, 'The file could not be sent. Try again.') }),
      );
    }
  }

  function remove(file: ChosenFile) {
    URL.revokeObjectURL(file.preview);
    previews.current.delete(file.preview);
    onChange((all) => all.filter((f) => f.key !== file.key));
    input.current?.focus();
  }

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={`field report-files${error ? ' field--invalid' : ''}`}>
      <span className="field__label" id={`${id}-label`}>
        Files <span className="field__optional">(optional if you give a URL)</span>
      </span>
      <div
        className={`report-drop${over ? ' report-drop--over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          choose(e.dataTransfer.files);
        }}
      >
        <Icon name="license" size={24} />
        <p className="report-drop__text">Drop images here, or</p>
        <label className="button button--secondary report-drop__choose" htmlFor={id}>
          Choose images
        </label>
        <input
          ref={input}
          id={id}
          className="sr-only"
          type="file"
          multiple
          accept="image/png,image/jpeg,image/webp"
          disabled={room <= 0}
          aria-labelledby={`${id}-label`}
          aria-describedby={[error ? errorId : '', hintId].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            choose(e.target.files);
            e.target.value = '';
          }}
          data-testid="report-file-input"
        />
      </div>
      <p id={hintId} className="field__hint">
        PNG, JPEG or WebP, up to {REPORT_LIMITS.files} files of 4 MB each. Each file is checked against the images we delivered as soon
        as you choose it. It is kept privately for this report only and never published.
      </p>
      {error && <FieldError id={errorId} message={error} />}
      {files.length > 0 && (
        <ul className="report-files__list" aria-label="Chosen files">
          {files.map((file) => (
            <li key={file.key} className={`report-file report-file--${file.state}`} data-testid="report-file" data-state={file.state}>
              <img className="report-file__preview" src={file.preview} alt="" width={56} height={56} />
              <div className="report-file__body">
                <p className="report-file__name">{file.name}</p>
                <div aria-live="polite">
                  {file.state === 'sending' && (
                    <p className="report-file__progress" role="status">
                      <progress aria-label={`Sending ${file.name}`} /> Sending and checking…
                    </p>
                  )}
                  {file.state === 'sent' && <MatchAnswer match={file.uploaded.match} />}
                  {file.state === 'failed' && (
                    <p className="report-file__error" role="alert">
                      {file.error}
                    </p>
                  )}
                </div>
              </div>
              <button type="button" className="button button--ghost report-file__remove" onClick={() => remove(file)} aria-label={`Remove ${file.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
