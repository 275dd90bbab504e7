// Reads the likeness model again while a training runs (LikenessModelCard): spaced out by
// pollDelayMs (from 5 s, doubling to a minute), paused while the page is hidden and read at once when it shows
// again. Free of React and of the DOM's globals, so it is tested under node.
import { pollDelayMs } from './format';

export interface PollerDeps {
  /** Reads once; resolves whether to go on (the training still runs). A failure goes on too, spaced out. */
  read: () => Promise<boolean>;
  isHidden: () => boolean;
  /** Calls back whenever the page's visibility changes; answers how to stop listening. */
  onVisibility: (listener: () => void) => () => void;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
}

/** Starts polling after a first wait; answers how to stop. */
export function startPolling(deps: PollerDeps): () => void {
  let attempt = 0;
  let timer: unknown;
  let stopped = false;
  let reading = false;

  const schedule = () => {
    if (stopped || deps.isHidden() || timer !== undefined) return;
    timer = deps.setTimer(() => {
      timer = undefined;
      void tick();
    }, pollDelayMs(attempt));
  };
  const tick = async () => {
    if (stopped || reading) return;
    if (deps.isHidden()) return;
    reading = true;
    // A failed read goes on, spaced out like the others.
    const more = await deps.read().catch(() => true);
    reading = false;
    attempt += 1;
    if (more) schedule();
    else stop();
  };
  const stopListening = deps.onVisibility(() => {
    if (stopped) return;
    if (deps.isHidden()) {
      if (timer !== undefined) deps.clearTimer(timer);
      timer = undefined;
      return;
    }
    // Back on the page: read now, then slowly again from the start.
    attempt = 0;
    void tick();
  });
  function stop() {
    stopped = true;
    if (timer !== undefined) deps.clearTimer(timer);
    timer = undefined;
    stopListening();
  }
  schedule();
  return stop;
}
