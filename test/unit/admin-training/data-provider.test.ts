// The console's training calls (admin/src/dataProvider.ts): each under /admin/talent/{id}/trainings,
// answers checked against the shared contract (events/training.ts), refusals passed on.
import { createDataProvider, type HttpClient } from '../../../admin/src/dataProvider';

// react-admin's UI packages do not load under jest; the data provider needs only its HttpError.
jest.mock('react-admin', () => ({
  fetchUtils: {},
  HttpError: class HttpError extends Error {
    constructor(
      message: string,
      readonly status: number,
      readonly body: unknown = null,
    ) {
      super(message);
    }
  },
}));
jest.mock('../../../admin/src/authProvider', () => ({ getIdToken: async () => undefined }));

type Options = Parameters<HttpClient>[1];

/** An HTTP client that records each call and answers with `answer` (an Error is thrown). */
function client(answer: (path: string, options: Options) => unknown) {
  const calls: Array<{ path: string; options: Options }> = [];
  const http = (async (path: string, options: Options = {}) => {
    calls.push({ path, options });
    const result = answer(path, options);
    if (result instanceof Error) throw result;
    return { status: 200, headers: new Headers(), body: JSON.stringify(result), json: result };
  }) as HttpClient;
  return { dataProvider: createDataProvider('https://api.example.test', http), calls };
}

const training = {
  id: 'trn_efghijklmnopqrstuvwx',
  number: 1,
  reason: 'acceptance',
  status: 'approved',
  createdAt: '2026-11-22T08:00:00.000Z',
  steps: 1000,
  startedAt: '2026-11-22T08:02:00.000Z',
  completedAt: '2026-11-22T08:20:00.000Z',
  durationSeconds: 1080,
  costMicros: 1_647_000,
  logsUrl: 'https://replicate.com/p/abc',
  version: 'humanly/likeness-0123456789abcdef:v1',
  live: true,
  approvedAt: '2026-11-22T09:00:00.000Z',
  samples: [],
};
const list = { talentId: 'tal_ava', state: 'live', model: 'humanly/likeness-0123456789abcdef', triggerWord: 'HMLK7Q2XZ', rejections: 0, retrainsLeft: 3, trainings: [training] };

describe('console data provider: trainings', () => {
  it("reads a talent's trainings, checked against the contract", async () => {
    const { dataProvider, calls } = client(() => list);
    await expect(dataProvider.getTrainings('tal/ava')).resolves.toEqual({ data: list });
    expect(calls[0].path).toBe('/talent/tal%2Fava/trainings');
    expect(calls[0].options?.method).toBeUndefined();
    const broken = client(() => ({ ...list, trainings: [{ ...training, costMicros: '1.64' }] }));
    await expect(broken.dataProvider.getTrainings('tal_ava')).rejects.toThrow('Unexpected response from /admin/talent/tal_ava/trainings');
  });

  it('retrains with the settings given and reads the new training', async () => {
    const { dataProvider, calls } = client(() => ({ talentId: 'tal_ava', trainingId: 'trn_fghijklmnopqrstuvwxy', number: 2 }));
    await expect(dataProvider.retrainLikeness('tal_ava', { steps: 1500, note: 'Sharper eyes' })).resolves.toEqual({
      data: { talentId: 'tal_ava', trainingId: 'trn_fghijklmnopqrstuvwxy', number: 2 },
    });
    expect(calls[0].path).toBe('/talent/tal_ava/trainings');
    expect(calls[0].options?.method).toBe('POST');
    expect(JSON.parse(String(calls[0].options?.body))).toEqual({ steps: 1500, note: 'Sharper eyes' });
  });

  it('rolls back to a training by its id and answers the list as it now stands', async () => {
    const { dataProvider, calls } = client(() => list);
    await expect(dataProvider.rollbackTraining('tal_ava', training.id)).resolves.toEqual({ data: list });
    expect(calls[0]).toMatchObject({ path: `/talent/tal_ava/trainings/${training.id}/rollback`, options: { method: 'POST' } });
  });

  it("passes the API's refusal on, with its body for the dialog", async () => {
    const { HttpError } = jest.requireMock<{ HttpError: new (m: string, s: number, b: unknown) => Error }>('react-admin');
    const refusal = new HttpError('Conflict', 409, { error: 'A training of this likeness model is running: wait until it has finished.' });
    const { dataProvider } = client(() => refusal);
    await expect(dataProvider.retrainLikeness('tal_ava', {})).rejects.toMatchObject({ status: 409, body: { error: 'A training of this likeness model is running: wait until it has finished.' } });
  });
});
