import { withFreshPortOnClash } from '../../../infra/local/emulators/ports';

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
