/**
 * Runs at most `size` tasks at once. `start` resolves when the task has begun (so a producer
 * reading a zip waits for a free slot, not for the work); `drain` resolves when all are done
 * and rejects with the first failure.
 */
export function taskPool(size: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  const running: Array<Promise<void>> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    async start(task: () => Promise<void>): Promise<void> {
      if (active < size) active += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      const done = Promise.resolve().then(task).finally(release);
      done.catch(() => undefined); // observed by drain()
      running.push(done);
    },
    async drain(): Promise<void> {
      await Promise.all(running);
    },
  };
}
