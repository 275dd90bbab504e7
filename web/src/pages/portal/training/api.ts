// The talent portal's likeness model calls (docs/training.md#routes): the model's state and
// samples, "Approve" and "This isn't me". The model is always the signed-in talent's: no call names
// a talent. Answers are checked against the shared contract (events/training.ts), loaded with the
// first call.
import type { LikenessModelView } from '../../../../../events/training';
import { apiClient, type ApiOptions } from '../../../api/client';

/** What "This isn't me" answers: the model, and whether a new training started (why not, when it did not). */
type RejectAnswer = LikenessModelView & { retraining: boolean; message?: string };

export interface LikenessModelApi {
  /** `GET /me/likeness-model`. */
  model(): Promise<LikenessModelView>;
  /** `POST /me/likeness-model/approve`: the version waiting for review goes live. */
  approve(): Promise<LikenessModelView>;
  /** `POST /me/likeness-model/reject` `{ note }`: "This isn't me", with what looks wrong. */
  reject(note: string): Promise<RejectAnswer>;
}

/** The contract's bounds of the note, checked before calling so the talent reads them at once. */
export const NOTE_MAX_LENGTH = 2000;
export const NOTE_REQUIRED_MESSAGE = 'Say what does not look like you: the note is required.';

/** The note as it is sent, or why it cannot be. */
export function checkNote(note: string): { note: string } | { error: string } {
  const trimmed = note.trim();
  if (!trimmed) return { error: NOTE_REQUIRED_MESSAGE };
  if (trimmed.length > NOTE_MAX_LENGTH) return { error: `The note must be at most ${NOTE_MAX_LENGTH} characters (it has ${trimmed.length}).` };
  return { note: trimmed };
}

const schemas = () => import('../../../../../events/training');

export function likenessModelApi(options: ApiOptions & { getIdToken: () => Promise<string | undefined> }): LikenessModelApi {
  const api = apiClient(options);
  const view = () => schemas().then((s) => s.LikenessModelView);
  return {
    model: () => api.read('GET', '/me/likeness-model', view),
    approve: () => api.read('POST', '/me/likeness-model/approve', view),
    reject(note) {
      const checked = checkNote(note);
      if ('error' in checked) return Promise.reject(new RangeError(checked.error));
      return api.read('POST', '/me/likeness-model/reject', () => schemas().then((s) => s.RejectLikenessModelAnswer), { body: { note: checked.note } });
    },
  };
}
