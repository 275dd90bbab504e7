import { useEffect, useRef, useState } from 'react';
import type { IdentityStatus } from '../../../../events/identity';
import type { IdentityApi } from './api';
import { problemOf, selfieMessage, stepOf, type Problem } from './flow';
import { PhoneHandoff } from './PhoneHandoff';
import { Alert, StepHeading } from './parts';
import { CAMERA_CONSTRAINTS, CAMERA_PROBLEM_TEXTS, cameraProblemOf, captureJpeg, sendSelfie, type CameraProblem, type SelfiePhase } from './selfie';

type View =
  | { at: 'intro' }
  | { at: 'starting' }
  | { at: 'live' }
  | { at: 'preview'; selfie: Blob; url: string }
  | { at: 'sending'; selfie: Blob; url: string; phase: SelfiePhase }
  | { at: 'camera'; problem: CameraProblem };

const PHASE_TEXTS: Record<SelfiePhase, string> = {
  uploading: 'Sending your selfie…',
  checking: 'Comparing your selfie with your photos…',
};

/**
 * The live selfie: the front camera with a framing guide, one frame taken, checked by the
 * applicant ("Use this" / "Retake"), sent and matched. No file picker. A camera that is refused
 * or missing says how to allow it and offers the phone.
 */
export function SelfieStep({
  api,
  token,
  status,
  contactEmail,
  onStatus,
  onLinkLost,
  onCheckAgain,
  checking,
  checkNote,
}: {
  api: IdentityApi;
  token: string;
  status: IdentityStatus;
  contactEmail: string;
  onStatus: (next: IdentityStatus) => void;
  onLinkLost: (problem: Problem) => void;
  onCheckAgain: () => void;
  checking: boolean;
  /** What the last "I finished on my phone" found, when the phone has not sent a selfie yet. */
  checkNote?: string;
}) {
  const [view, setView] = useState<View>({ at: 'intro' });
  const [failure, setFailure] = useState<{ text: string; n: number }>();
  const [videoReady, setVideoReady] = useState(false);
  const [handoffOpen, setHandoffOpen] = useState<'asked' | 'shown' | false>(false);
  /** Selfies sent from this page: each result is announced, even when it repeats the last one. */
  const [attempt, setAttempt] = useState(0);
  const stream = useRef<MediaStream | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const previewUrl = useRef<string | null>(null);
  /** The result of the last selfie when another one is needed (no face, another person's...). */
  const lastResult = status.selfie.state === 'none' ? undefined : selfieMessage(status);

  const stopCamera = () => {
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
    setVideoReady(false);
  };
  const dropPreview = () => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = null;
  };
  useEffect(
    () => () => {
      stream.current?.getTracks().forEach((t) => t.stop());
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    },
    [],
  );

  // The stream goes to the video element once it is on the page.
  useEffect(() => {
    if (view.at !== 'live' || !video.current || !stream.current) return;
    if (video.current.srcObject !== stream.current) video.current.srcObject = stream.current;
    void video.current.play().catch(() => undefined);
  }, [view.at]);

  async function openCamera() {
    setFailure(undefined);
    if (stream.current?.active) {
      // A new video element: "Take selfie" waits for its first frame again.
      setVideoReady(false);
      return setView({ at: 'live' });
    }
    if (!navigator.mediaDevices?.getUserMedia) return setView({ at: 'camera', problem: 'unsupported' });
    setView({ at: 'starting' });
    try {
      stream.current = await navigator.mediaDevices.getUserMedia(CAMERA_CONSTRAINTS);
      setView({ at: 'live' });
    } catch (err) {
      setView({ at: 'camera', problem: cameraProblemOf(err) });
      setHandoffOpen((open) => open || 'shown');
    }
  }

  async function take() {
    if (!video.current) return;
    try {
      const selfie = await captureJpeg(video.current);
      dropPreview();
      previewUrl.current = URL.createObjectURL(selfie);
      setView({ at: 'preview', selfie, url: previewUrl.current });
    } catch (err) {
      setFailure((last) => ({ text: err instanceof Error ? err.message : String(err), n: (last?.n ?? 0) + 1 }));
    }
  }

  async function use(selfie: Blob, url: string) {
    setFailure(undefined);
    setView({ at: 'sending', selfie, url, phase: 'uploading' });
    try {
      const next = await sendSelfie({ api, token, selfie, onPhase: (phase) => setView({ at: 'sending', selfie, url, phase }) });
      stopCamera();
      dropPreview();
      if (stepOf(next) === 'selfie') setView({ at: 'intro' });
      setAttempt((n) => n + 1);
      onStatus(next);
    } catch (err) {
      const problem = problemOf(err, 'identity', contactEmail);
      if (problem.kind === 'link') {
        stopCamera();
        return onLinkLost(problem);
      }
      setFailure((last) => ({ text: problem.text, n: (last?.n ?? 0) + 1 }));
      setView({ at: 'preview', selfie, url });
    }
  }

  const handoff = (
    <PhoneHandoff
      token={token}
      focusOnOpen={handoffOpen === 'asked'}
      checking={checking}
      note={checkNote}
      onCheckAgain={() => {
        stopCamera();
        if (view.at === 'live' || view.at === 'starting') setView({ at: 'intro' });
        onCheckAgain();
      }}
    />
  );

  return (
    <section className="card idv-step" aria-labelledby="idv-selfie-title" data-testid="selfie-step">
      <StepHeading id="idv-selfie-title" key={attempt}>
        {lastResult ? 'Take your selfie again' : 'Take a selfie'}
      </StepHeading>
      <p className={lastResult ? 'idv-result idv-result--retake' : 'idv-result'} role="status" data-testid="selfie-result">
        {lastResult && <span key={attempt}>{lastResult}</span>}
      </p>
      {failure && <Alert key={failure.n}>{failure.text}</Alert>}

      {view.at === 'intro' && (
        <>
          <p>
            We compare a selfie you take now with your photos, to confirm they show you. Your camera opens on this page; the
            picture is taken only when you press “Take selfie”.
          </p>
          <ul className="idv-tips">
            <li>Face the camera in good, even light (a window in front of you, not behind).</li>
            <li>Take off sunglasses and hats; nobody else in the frame.</li>
          </ul>
          <button type="button" className="button button--primary" onClick={openCamera} data-testid="open-camera">
            Open the camera
          </button>
        </>
      )}

      {view.at === 'starting' && (
        <p role="status" className="idv-waiting">
          Opening the camera… If your browser asks, allow this page to use it.
        </p>
      )}

      {view.at === 'live' && (
        <div className="idv-camera">
          <StepHeading id="idv-frame-title" level={3}>
            Frame your face
          </StepHeading>
          <div className="idv-frame">
            <video
              ref={video}
              className="idv-frame__video"
              autoPlay
              playsInline
              muted
              aria-label="Camera preview: your face should fill the oval"
              onLoadedMetadata={() => setVideoReady(true)}
              data-testid="camera-preview"
            />
            <svg className="idv-frame__guide" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true" focusable="false">
              <defs>
                <mask id="idv-oval">
                  <rect width="100" height="100" fill="#fff" />
                  <ellipse cx="50" cy="47" rx="24" ry="34" fill="#000" />
                </mask>
              </defs>
              <rect width="100" height="100" fill="rgb(0 0 0 / 0.45)" mask="url(#idv-oval)" />
              <ellipse cx="50" cy="47" rx="24" ry="34" fill="none" stroke="#fff" strokeWidth="0.8" strokeDasharray="3 2" vectorEffect="non-scaling-stroke" />
            </svg>
          </div>
          <p className="idv-hint" id="idv-frame-hint">
            Fit your face inside the oval and look at the camera.
          </p>
          <div className="idv-actions">
            <button type="button" className="button button--primary" onClick={take} disabled={!videoReady} aria-describedby="idv-frame-hint" data-testid="take-selfie">
              Take selfie
            </button>
          </div>
        </div>
      )}

      {(view.at === 'preview' || view.at === 'sending') && (
        <div className="idv-camera">
          <StepHeading id="idv-check-title" level={3}>
            Check your selfie
          </StepHeading>
          <div className="idv-frame">
            <img className="idv-frame__still" src={view.url} alt="The selfie you took" data-testid="selfie-preview" />
          </div>
          {view.at === 'sending' ? (
            <p role="status" className="idv-waiting" data-testid="selfie-sending">
              {PHASE_TEXTS[view.phase]}
            </p>
          ) : (
            <>
              <p className="idv-hint">Is your whole face sharp, in the light, with nobody else in the picture?</p>
              <div className="idv-actions">
                <button type="button" className="button button--primary" onClick={() => use(view.selfie, view.url)} data-testid="use-selfie">
                  Use this
                </button>
                <button type="button" className="button button--secondary" onClick={openCamera} data-testid="retake-selfie">
                  Retake
                </button>
              </div>
            </>
          )}
        </div>
      )}

      {view.at === 'camera' && (
        <div className="idv-camera-problem" data-testid="camera-problem">
          <StepHeading id="idv-camera-problem-title" level={3}>
            {CAMERA_PROBLEM_TEXTS[view.problem].title}
          </StepHeading>
          <p>{CAMERA_PROBLEM_TEXTS[view.problem].text}</p>
          {view.problem !== 'missing' && view.problem !== 'unsupported' && (
            <button type="button" className="button button--secondary" onClick={openCamera} data-testid="retry-camera">
              Try the camera again
            </button>
          )}
        </div>
      )}

      {handoffOpen || view.at === 'camera' ? (
        handoff
      ) : (
        <p className="idv-handoff-offer">
          On a computer without a good camera?{' '}
          <button type="button" className="idv-link-button" onClick={() => setHandoffOpen('asked')} data-testid="open-handoff">
            Continue on your phone
          </button>
        </p>
      )}
    </section>
  );
}
