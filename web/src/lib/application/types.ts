// The shapes the application forms, the upload hook and the lazily loaded machinery share. Imports
// run one way: useApplicationUpload -> submission -> SubmissionDialog, each taking these from here.
import type { FoundingSignupRequest, FoundingSignupResponse } from '../../../../events/founding';
import type { SelectedPhoto } from './photos';

export type SubmissionStage = 'uploading' | 'submitting' | 'almostDone';

/** Builds the signup once the uploads are done and their session and keys are known. */
export type BuildSignup = (uploadSession: string, imagePaths: string[]) => FoundingSignupRequest;

export type SubmitOutcome = { ok: true; result: FoundingSignupResponse; notice?: string } | { ok: false; alert: string };

/** What the machinery (./submission) needs from the page: the photos and where to report. */
export interface UploadStore {
  apiUrl: string;
  photos: () => readonly SelectedPhoto[];
  setPhotos: (list: SelectedPhoto[]) => void;
  patch: (id: string, change: Partial<SelectedPhoto>) => void;
  setStage: (stage: SubmissionStage | null) => void;
  /** Updates the list from its latest state. */
  update: (change: (list: SelectedPhoto[]) => SelectedPhoto[]) => void;
  /**
   * The address the uploads were made for, their session and the keys so far, and the upload
   * under way (a retry of one file, say), which the next one waits for.
   */
  session: { email: string; uploadSession?: string; keys: Map<string, string>; running?: Promise<void> };
}
