import { useEffect, useRef } from 'react';
import { FOUNDING_MESSAGES } from '../../../../events/founding-values';
import type { SelectedPhoto } from './photos';
import { totalProgress } from './PhotoList';
import type { SubmissionStage } from './types';

const STAGES: readonly SubmissionStage[] = ['uploading', 'submitting', 'almostDone'];
const STAGE_TEXT: Record<SubmissionStage, string> = {
  uploading: FOUNDING_MESSAGES.progress.uploading,
  submitting: FOUNDING_MESSAGES.progress.submitting,
  almostDone: FOUNDING_MESSAGES.progress.almostDone,
};

/** Overall progress: the uploads fill the first 80%, the signup call the next 15%. */
function overall(stage: SubmissionStage, photos: readonly SelectedPhoto[]): number {
  if (stage === 'uploading') return Math.round(totalProgress(photos) * 0.8);
  return stage === 'submitting' ? 90 : 100;
}

/**
 * The blocking dialog while an application is sent (docs/product.md#founding-submit): a modal <dialog>
 * (the page behind is inert, Escape does not close it), the current stage announced politely,
 * the overall progress, and the request not to close the window.
 */
export default function SubmissionDialog({ stage, photos }: { stage: SubmissionStage; photos: readonly SelectedPhoto[] }) {
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    if (!dialog.open) dialog.showModal();
    heading.current?.focus();
    return () => dialog.close();
  }, []);

  const value = overall(stage, photos);
  const current = STAGES.indexOf(stage);
  const uploaded = photos.filter((p) => p.key).length;

  return (
    <dialog
      ref={ref}
      className="submit-dialog"
      aria-labelledby="submit-dialog-title"
      aria-describedby="submit-dialog-note"
      onCancel={(e) => e.preventDefault()}
      data-testid="submission-dialog"
    >
      <span className="submit-dialog__spinner" aria-hidden="true" />
      <h2 id="submit-dialog-title" ref={heading} tabIndex={-1}>
        Sending your application
      </h2>
      <p className="submit-dialog__stage" aria-live="polite" data-testid="submission-stage">
        {STAGE_TEXT[stage]}
      </p>
      <ol className="submit-dialog__steps">
        {STAGES.map((s, i) => (
          <li key={s} className={i < current ? 'is-done' : i === current ? 'is-current' : undefined} aria-current={i === current ? 'step' : undefined}>
            {STAGE_TEXT[s]}
            {s === 'uploading' && i === current && photos.length > 0 ? ` (${uploaded} of ${photos.length} files)` : ''}
          </li>
        ))}
      </ol>
      <span className="upload-bar upload-bar--large" role="progressbar" aria-label="Overall progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
        <span className="upload-bar__fill" style={{ width: `${value}%` }} />
      </span>
      <p id="submit-dialog-note" className="submit-dialog__note">
        {FOUNDING_MESSAGES.doNotClose}
      </p>
    </dialog>
  );
}
