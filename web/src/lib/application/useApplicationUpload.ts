import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { SelectedPhoto } from './photos';
import type { BuildSignup, SubmissionStage, SubmitOutcome, UploadStore } from './types';

/**
 * The machinery (presign, upload queue, signup, validation texts) is its own chunk, fetched when
 * the applicant first picks files or submits, never with the page.
 */
export const loadMachinery = () => import('./submission');

/**
 * Picked files, their uploads and the submission, shared by the founding and the standard
 * application forms. Object URLs of thumbnails are revoked on removal and on unmount; a
 * beforeunload prompt guards a submission under way.
 */
export function useApplicationUpload(apiUrl: string) {
  const [photos, setPhotos] = useState<SelectedPhoto[]>([]);
  const [stage, setStage] = useState<SubmissionStage | null>(null);
  const [skipped, setSkipped] = useState<string[]>([]);
  const photosRef = useRef(photos);

  const patch = useCallback((id: string, change: Partial<SelectedPhoto>) => {
    setPhotos((list) => list.map((p) => (p.id === id ? { ...p, ...change } : p)));
  }, []);

  const store = useRef<UploadStore>(null!);
  store.current ??= {
    apiUrl,
    photos: () => photosRef.current,
    setPhotos: (list) => {
      photosRef.current = list;
      setPhotos(list);
    },
    patch,
    setStage,
    update: (change) => setPhotos(change),
    session: { email: '', keys: new Map() },
  };
  // Handlers and the machinery read the latest list and API through these, as soon as React commits.
  useLayoutEffect(() => {
    photosRef.current = photos;
    store.current.apiUrl = apiUrl;
  });

  useEffect(() => () => photosRef.current.forEach((p) => p.preview && URL.revokeObjectURL(p.preview)), []);

  useEffect(() => {
    if (!stage) return undefined;
    const guard = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [stage]);

  /** Adds picked or dropped files; the machinery sorts them out (and counts zips with fflate). */
  const add = useCallback((files: File[]) => {
    void loadMachinery().then((m) => m.addFiles(store.current, files, setSkipped));
  }, []);

  const remove = useCallback((id: string) => {
    const photo = photosRef.current.find((p) => p.id === id);
    if (photo?.preview) URL.revokeObjectURL(photo.preview);
    setPhotos((list) => list.filter((p) => p.id !== id));
  }, []);

  /** Uploads what is not uploaded yet, then sends the signup `build` makes; see ./submission. */
  const submit = (email: string, build: BuildSignup): Promise<SubmitOutcome> =>
    loadMachinery().then(
      (m) => m.submitApplication(store.current, email, build),
      // The generic alert, for a machinery chunk that could not be fetched.
      () => ({ ok: false, alert: 'There was an error submitting your application: Please try again later.' }),
    );

  /** Uploads one failed file again; resolves with an alert text when it fails again. */
  const retry = (id: string, email: string): Promise<string | undefined> =>
    stage ? Promise.resolve(undefined) : loadMachinery().then((m) => m.retryPhoto(store.current, id, email));

  return { photos, skipped, add, remove, retry, submit, stage, finish: () => setStage(null) };
}

export type ApplicationUpload = ReturnType<typeof useApplicationUpload>;
