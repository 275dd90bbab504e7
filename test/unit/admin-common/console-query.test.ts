import { consoleAnswer } from '../../../admin/src/common/useConsoleQuery';

// react-admin's proxy resolves a call it has handled (401, 403) with `{ data: {} }` instead of rejecting.
describe('a console read’s answer', () => {
  const isRun = (data: { payouts?: unknown }) => Array.isArray(data.payouts);

  it('is the data of a real answer, null included when the read allows it', async () => {
    await expect(consoleAnswer(async () => ({ data: { payouts: [] } }), isRun, 'No access.')).resolves.toEqual({ payouts: [] });
    await expect(consoleAnswer(async () => ({ data: null }), (d) => d === null, 'No access.')).resolves.toBeNull();
  });

  it('fails with the forbidden words after a handled 401 or 403, or no answer', async () => {
    await expect(consoleAnswer(async () => ({ data: {} }), isRun, 'You do not have access to payouts.')).rejects.toThrow('You do not have access to payouts.');
    await expect(consoleAnswer(async () => undefined, isRun, 'No access.')).rejects.toThrow('No access.');
  });

  it('passes the read’s own failure on', async () => {
    await expect(consoleAnswer(() => Promise.reject(new Error('HTTP 500')), isRun, 'No access.')).rejects.toThrow('HTTP 500');
  });
});
