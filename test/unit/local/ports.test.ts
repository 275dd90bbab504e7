import { createServer } from 'node:http';
import { listenOnLoopback, withFreshPortOnClash } from '../../../infra/local/emulators/ports';

const clash = () => new Error('DynamoDB Local on http://127.0.0.1:41087: exited with code 1 ... java.net.BindException: Address already in use');

describe('starting an emulator on a port the OS picked', () => {
  it('starts again when the port was taken before the emulator bound it', async () => {
    let calls = 0;
    const started = await withFreshPortOnClash(undefined, async () => {
      calls++;
      if (calls === 1) throw clash();
      return 'running';
    });
    expect(started).toBe('running');
    expect(calls).toBe(2);
  });

  it('gives up after three clashes', async () => {
    let calls = 0;
    const start = withFreshPortOnClash(undefined, async () => {
      calls++;
      throw clash();
    });
    await expect(start).rejects.toThrow('Address already in use');
    expect(calls).toBe(3);
  });

  it('never moves a port the caller chose', async () => {
    let calls = 0;
    const start = withFreshPortOnClash(4020, async () => {
      calls++;
      throw clash();
    });
    await expect(start).rejects.toThrow('Address already in use');
    expect(calls).toBe(1);
  });

  it('does not retry other failures', async () => {
    let calls = 0;
    const start = withFreshPortOnClash(undefined, async () => {
      calls++;
      throw new Error('java: command not found');
    });
    await expect(start).rejects.toThrow('command not found');
    expect(calls).toBe(1);
  });
});

describe('a twin server listening on a port picked earlier', () => {
  it('rejects with EADDRINUSE, which the start retries on fresh ports, when another process took the port', async () => {
    const holder = createServer();
    await listenOnLoopback(holder, 0);
    const port = (holder.address() as { port: number }).port;
    const late = createServer();
    try {
      const failure = await listenOnLoopback(late, port).then(() => undefined, (e: Error) => e);
      expect(failure?.message).toMatch(/EADDRINUSE/);
      let calls = 0;
      await withFreshPortOnClash(undefined, async () => {
        calls++;
        if (calls === 1) throw failure!;
      });
      expect(calls).toBe(2);
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });
});
