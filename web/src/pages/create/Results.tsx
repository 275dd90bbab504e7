import { Link } from 'react-router';
import type { Generation, GenerationImage } from '../../../../events/generations';
import { IMAGE_GENERATION_FAILED, LICENSE_CHECK_PATH, MAX_IMAGES, licensePath, queuedMessage, type GenerationStatus } from '../../../../events/generation-values';
import { Icon } from '../../components/Icon';
import type { GenerationApi } from '../../generation/api';
import { DownloadButton } from '../../generation/DownloadButton';
import { STATUS_TEXT } from '../../generation/format';
import type { GenerationRun } from './useGenerationRun';

/** "Your images": the run's progress, why it failed, or its images with their downloads and licenses (`talentName`: the chosen talent's, until the generation says). */
export function Results({ id, run, talentName, api }: { id: string; run: GenerationRun; talentName: string; api: GenerationApi }) {
  const { status, problem, running, results, announce } = run;
  return (
    <section className="card create-results" aria-labelledby={`${id}-results-title`} data-testid="create-results">
      <h2 id={`${id}-results-title`} className="create-results__title">
        Your images
      </h2>
      <p className="sr-only" role="status" aria-live="polite" data-testid="create-announce">
        {announce}
      </p>
      {status && <Progress status={status} queue={run.generation?.queue} />}
      {problem && !running && (
        <div className="create-problem" data-testid="create-problem">
          <p className="create-problem__title">{IMAGE_GENERATION_FAILED}</p>
          <p>{problem.message}</p>
          {problem.pricing && (
            <Link to="/pricing" className="button button--secondary">
              See the plans <Icon name="arrowRight" size={18} className="button__arrow" />
            </Link>
          )}
        </div>
      )}
      {results.length > 0 ? (
        <ul className="create-grid" aria-label="Generated images" data-testid="create-grid" data-count={Math.min(results.length, MAX_IMAGES)}>
          {results.map((image, i) => (
            <ResultTile key={image.licenseId} image={image} n={i + 1} of={results.length} talentName={run.generation?.talentName ?? talentName} api={api} />
          ))}
        </ul>
      ) : (
        !status &&
        !problem && (
          <p className="create-results__empty">
            Your images appear here, each with its commercial license. They are also kept in your client portal.
          </p>
        )
      )}
      <p className="create-results__check">
        <Icon name="shield" size={18} />
        <span>
          Have an image from us? <Link to={LICENSE_CHECK_PATH}>Check its license</Link>
        </span>
      </p>
    </section>
  );
}

/** The run's status; while the start waits for admission under Replicate's limit, its place in the queue (decision 065). */
function Progress({ status, queue }: { status: GenerationStatus; queue?: Generation['queue'] }) {
  const text = queue ? { ...STATUS_TEXT[status], working: queuedMessage(queue.position) } : STATUS_TEXT[status];
  return (
    <div className="create-progress" data-testid="create-progress" data-status={status} {...(queue ? { 'data-queue-position': queue.position } : {})}>
      <div className="create-progress__head">
        <span className="create-progress__label">{text.label}</span>
        <span className="create-progress__words">{text.working}</span>
      </div>
      <div
        className="create-progress__bar"
        role="progressbar"
        aria-label="Generation progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={text.progress}
        aria-valuetext={`${text.label}: ${text.working}`}
      >
        <span style={{ width: `${text.progress}%` }} />
      </div>
    </div>
  );
}

function ResultTile({ image, n, of, talentName, api }: { image: GenerationImage; n: number; of: number; talentName: string; api: GenerationApi }) {
  return (
    <li className="create-tile" data-testid="create-result" data-license-id={image.licenseId}>
      <img src={image.url} alt={`Image ${n} of ${of}${talentName ? ` with ${talentName}` : ''}`} width={512} height={512} className="create-tile__image" />
      <div className="create-tile__actions">
        <DownloadButton api={api} licenseId={image.licenseId} label={`Download image ${n}`} />
        <Link to={licensePath(image.licenseId)} className="create-tile__license" aria-label={`License of image ${n}`}>
          <Icon name="license" size={18} /> License
        </Link>
      </div>
    </li>
  );
}
