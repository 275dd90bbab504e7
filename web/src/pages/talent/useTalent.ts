import { useCallback, useEffect, useState } from 'react';
import { fetchTalent, fetchTalentList, knownTalent, TalentNotFoundError, type PublicTalent } from '../../api/talent';

export type Loadable<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'not-found' }
  | { status: 'error'; message: string };

/**
 * Loads once per mount (and again on `retry`). Data is fetched in an effect, never during
 * render, so the build's prerendered HTML and the browser's first render are the same
 * (the loading state) and hydrate cleanly.
 */
function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, initial: Loadable<T>, key: string): Loadable<T> & { retry: () => void } {
  const [state, setState] = useState<Loadable<T>>(initial);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => setState({ status: 'ready', data }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof TalentNotFoundError) setState({ status: 'not-found' });
        // A failed refresh keeps what is already on screen.
        else setState((prev) => (prev.status === 'ready' ? prev : { status: 'error', message: err instanceof Error ? err.message : String(err) }));
      },
    );
    return () => controller.abort();
    // `load` changes identity every render; `key` and `attempt` say when to load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new `load` closure alone must not refetch
  }, [key, attempt]);
  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { ...state, retry };
}

export function useTalentList(apiUrl: string) {
  return useLoad((signal) => fetchTalentList(apiUrl, signal), { status: 'loading' }, apiUrl);
}

/**
 * One profile; a talent already seen in the library shows at once while it refreshes. Mount
 * one per id (`key={id}`), so a new id never shows the previous profile.
 */
export function useTalentProfile(apiUrl: string, id: string) {
  const cached = knownTalent(id);
  return useLoad<PublicTalent>(
    (signal) => fetchTalent(apiUrl, id, signal),
    cached ? { status: 'ready', data: cached } : { status: 'loading' },
    `${apiUrl}/${id}`,
  );
}
