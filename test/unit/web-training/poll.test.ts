import { startPolling, type PollerDeps } from '../../../web/src/pages/portal/training/poll';

/** A poller over a hand-driven clock and page: timers run when the test says so. */
function harness(answers: Array<boolean | Error>) {
  const timers = new Map<number, { run: () => void; ms: number }>();
  let next = 1;
  let hidden = false;
  let listener: (() => void) | undefined;
  let reads = 0;
  const deps: PollerDeps = {
    read: async () => {
      reads += 1;
      const answer = answers.shift() ?? true;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    isHidden: () => hidden,
    onVisibility: (l) => {
      listener = l;
      return () => {
        listener = undefined;
      };
    },
    setTimer: (run, ms) => {
      const id = next++;
      timers.set(id, { run, ms });
      return id;
    },
    clearTimer: (id) => timers.delete(id as number),
  };
  const stop = startPolling(deps);
  /** Runs the one pending timer and lets its read settle; answers the pause it was set for. */
  const fire = async () => {
    expect(timers.size).toBe(1);
    const [[id, timer]] = [...timers];
    timers.delete(id);
    timer.run();
    await new Promise((resolve) => setImmediate(resolve));
    return timer.ms;
  };
  return {
    stop,
    fire,
    timers,
    reads: () => reads,
    listening: () => listener !== undefined,
    setHidden: async (h: boolean) => {
      hidden = h;
      listener?.();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('likeness model card: polling', () => {
  it('reads again, spaced out, until the training settles, then stops listening', async () => {
    const h = harness([true, true, false]);
    expect(await h.fire()).toBe(5_000);
    expect(await h.fire()).toBe(10_000);
    expect(await h.fire()).toBe(20_000);
    expect(h.reads()).toBe(3);
    expect(h.timers.size).toBe(0);
    expect(h.listening()).toBe(false);
  });

  it('goes on after a failed read', async () => {
    const h = harness([new Error('offline'), false]);
    await h.fire();
    expect(h.timers.size).toBe(1);
    await h.fire();
    expect(h.reads()).toBe(2);
    expect(h.timers.size).toBe(0);
  });

  it('stops while the page is hidden, and reads at once, from the start, when it shows again', async () => {
    const h = harness([true, true, true]);
    await h.fire();
    await h.fire();
    await h.setHidden(true);
    expect(h.timers.size).toBe(0);
    expect(h.reads()).toBe(2);
    await h.setHidden(false);
    expect(h.reads()).toBe(3);
    expect(await h.fire()).toBe(10_000);
  });

  it('stops when told to', async () => {
    const h = harness([]);
    h.stop();
    expect(h.timers.size).toBe(0);
    expect(h.listening()).toBe(false);
  });
});
