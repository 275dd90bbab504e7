// The twin's instruments (decision 018) without a twin: the meter proxy in front of a small
// stand-in upstream, and the fault bookkeeping.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { BusEvent } from '../../../infra/local/eventbridge';
import { Instruments } from '../../../infra/local/instruments';
import { startMeterProxy, type MeterProxy } from '../../../infra/local/emulators/meter-proxy';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** An upstream that records each request and answers with `answer(request)`. */
async function upstream(answer: (seen: Seen) => { status: number; body: string }) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(s);
      const { status, body } = answer(s);
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { seen, endpoint: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function proxied(service: 'dynamodb' | 's3' | 'ses', answer: (seen: Seen) => { status: number; body: string }) {
  const up = await upstream(answer);
  const instruments = new Instruments();
  const proxy: MeterProxy = await startMeterProxy(service, up.endpoint, instruments);
  stops.push(up.close, proxy.stop);
  return { up, instruments, proxy };
}

const dynamoCall = (endpoint: string, op: string, body: object) =>
  fetch(endpoint, { method: 'POST', headers: { 'x-amz-target': `DynamoDB_20120810.${op}`, 'content-type': 'application/x-amz-json-1.0' }, body: JSON.stringify(body) });

describe('meter proxy', () => {
  it('asks DynamoDB for consumed capacity, counts it, and hands the caller the answer it asked for', async () => {
    const { up, instruments, proxy } = await proxied('dynamodb', (s) => {
      const req = JSON.parse(s.body);
      return { status: 200, body: JSON.stringify({ Attributes: {}, ...(req.ReturnConsumedCapacity === 'TOTAL' ? { ConsumedCapacity: { TableName: 'T', CapacityUnits: 2 } } : {}) }) };
    });
    const res = await dynamoCall(proxy.endpoint, 'PutItem', { TableName: 'T', Item: {} });
    expect(await res.json()).toEqual({ Attributes: {} });
    expect(JSON.parse(up.seen[0].body).ReturnConsumedCapacity).toBe('TOTAL');
    const m = instruments.snapshot();
    expect(m.dynamodb).toMatchObject({ calls: 1, writeUnits: 2, readUnits: 0, byTable: { T: { writeUnits: 2, readUnits: 0 } } });
  });

  it('bills a write refused by its condition as one write unit', async () => {
    const { instruments, proxy } = await proxied('dynamodb', () => ({ status: 400, body: JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'no' }) }));
    const res = await dynamoCall(proxy.endpoint, 'UpdateItem', { TableName: 'T', Key: {} });
    expect(res.status).toBe(400);
    expect(instruments.snapshot().dynamodb).toMatchObject({ writeUnits: 1, conditionalFailures: 1 });
  });

  it('throttles the share of DynamoDB calls asked for, evenly, without reaching DynamoDB', async () => {
    const { up, instruments, proxy } = await proxied('dynamodb', () => ({ status: 200, body: '{}' }));
    await instruments.inject({ kind: 'dynamodb-throttle', share: 0.25 });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await dynamoCall(proxy.endpoint, 'GetItem', { TableName: 'T', Key: {} })).status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(2);
    expect(up.seen).toHaveLength(6);
    expect(instruments.snapshot().dynamodb.throttled).toBe(2);
    await instruments.clear('dynamodb-throttle');
    expect((await dynamoCall(proxy.endpoint, 'GetItem', { TableName: 'T', Key: {} })).status).toBe(200);
  });

  it('counts S3 requests by price tier and the bytes put', async () => {
    const { instruments, proxy } = await proxied('s3', () => ({ status: 200, body: '' }));
    await fetch(`${proxy.endpoint}/bucket/a.jpg`, { method: 'PUT', body: 'x'.repeat(100) });
    await fetch(`${proxy.endpoint}/bucket/b.jpg`, { method: 'PUT', headers: { 'x-amz-copy-source': '/bucket/a.jpg' } });
    await fetch(`${proxy.endpoint}/bucket?list-type=2`);
    await fetch(`${proxy.endpoint}/bucket/a.jpg`);
    await fetch(`${proxy.endpoint}/bucket/a.jpg`, { method: 'HEAD' });
    await fetch(`${proxy.endpoint}/bucket/a.jpg`, { method: 'DELETE' });
    expect(instruments.snapshot().s3).toEqual({ tier1: 3, tier2: 2, deletes: 1, bytesPut: 100 });
  });

  it('fails S3 PUTs of the keys asked for once the first ones went through, as S3 answers an internal error', async () => {
    const { up, instruments, proxy } = await proxied('s3', () => ({ status: 200, body: '' }));
    await instruments.inject({ kind: 's3-put-fail', keyIncludes: 'generations/acc-1/', after: 2 });
    const put = (key: string) => fetch(`${proxy.endpoint}/images/${key}`, { method: 'PUT', body: 'png' });
    const answers = [];
    for (const key of ['generations/acc-1/g/0.png', 'generations/acc-2/g/0.png', 'generations/acc-1/g/1.png', 'generations/acc-1/g/2.png', 'generations/acc-1/g/3.png']) {
      const res = await put(key);
      answers.push([key, res.status, res.status === 500 ? (await res.text()).includes('<Code>InternalError</Code>') : true]);
    }
    expect(answers).toEqual([
      ['generations/acc-1/g/0.png', 200, true],
      ['generations/acc-2/g/0.png', 200, true],
      ['generations/acc-1/g/1.png', 200, true],
      ['generations/acc-1/g/2.png', 500, true],
      ['generations/acc-1/g/3.png', 500, true],
    ]);
    // The failed PUTs never reached S3; reads of the same keys are untouched.
    expect(up.seen.map((s) => s.url)).toEqual(['/images/generations/acc-1/g/0.png', '/images/generations/acc-2/g/0.png', '/images/generations/acc-1/g/1.png']);
    expect((await fetch(`${proxy.endpoint}/images/generations/acc-1/g/0.png`)).status).toBe(200);
    await instruments.clear('s3-put-fail');
    expect((await put('generations/acc-1/g/2.png')).status).toBe(200);
  });

  it('counts SES recipients, and when SES is down refuses connections until it is back on the same port', async () => {
    const { instruments, proxy } = await proxied('ses', () => ({ status: 200, body: '{"MessageId":"m"}' }));
    const send = () =>
      fetch(`${proxy.endpoint}/v2/email/outbound-emails`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Destination: { ToAddresses: ['a@example.com', 'b@example.com'] } }),
      });
    expect((await send()).status).toBe(200);
    await instruments.inject({ kind: 'ses-down', mode: 'refused' });
    await expect(send()).rejects.toMatchObject({ name: 'TypeError', cause: expect.objectContaining({ code: 'ECONNREFUSED' }) });
    await instruments.clear('ses-down');
    expect((await send()).status).toBe(200);
    await instruments.inject({ kind: 'ses-down', mode: '5xx' });
    expect((await send()).status).toBe(503);
    expect(instruments.snapshot().ses).toEqual({ messages: 2, recipients: 4, refused: 1 });
  });
});

describe('faults', () => {
  it('fails a function the number of times asked, then lets it run', async () => {
    const instruments = new Instruments();
    await instruments.inject({ kind: 'function', name: 'F', mode: 'throw', times: 2 });
    expect([1, 2, 3].map(() => instruments.functionFault('F'))).toEqual(['throw', 'throw', undefined]);
    expect(instruments.functionFault('G')).toBeUndefined();
  });

  it('refuses a fault it cannot apply, naming what is wrong', async () => {
    const instruments = new Instruments();
    await expect(instruments.inject({ kind: 'dynamodb-throttle', share: 2 })).rejects.toThrow(/share must be a number in \(0, 1\]/);
    await expect(instruments.inject({ kind: 'function', name: 'F', mode: 'explode' as 'throw' })).rejects.toThrow(/mode must be 'throw' or 'slow'/);
    await expect(instruments.inject({ kind: 'function', name: 'F', mode: 'throw', times: 0 })).rejects.toThrow(/times must be a positive integer/);
    await expect(instruments.inject({ kind: 's3-put-fail', keyIncludes: '' })).rejects.toThrow(/s3-put-fail fault needs keyIncludes/);
    await expect(instruments.inject({ kind: 'disk-full' } as never)).rejects.toThrow(/unknown fault kind "disk-full"/);
  });

  it('keeps routed events once for replays, and a replay publishes nothing new', () => {
    const instruments = new Instruments();
    const event: BusEvent = { version: '0', id: 'e1', 'detail-type': 'Thing.Happened', source: 'humanly.marketplace', account: '1', time: 't', region: 'r', resources: [], detail: { id: 'x1' } };
    instruments.eventRouted('bus', event);
    instruments.eventRouted('bus', event);
    expect(instruments.snapshot().events.published).toBe(1);
    expect(instruments.eventsMatching({ detailIncludes: 'x1' })).toHaveLength(1);
    expect(instruments.eventsMatching({ detailType: 'Other' })).toHaveLength(0);
  });
});

describe('state machine meters', () => {
  it('counts the states entered, keeps each execution\'s in order, and a reset starts every count again', () => {
    const instruments = new Instruments();
    instruments.executionStarted();
    instruments.executionStarted();
    for (const [execution, state] of [['g-1', 'A'], ['g-2', 'A'], ['g-1', 'B'], ['g-1', 'A']]) instruments.stateEntered(execution, state);
    expect(instruments.snapshot().stepFunctions).toEqual({ executions: 2, transitions: 4, byExecution: { 'g-1': ['A', 'B', 'A'], 'g-2': ['A'] } });
    instruments.reset();
    instruments.stateEntered('g-3', 'C');
    expect(instruments.snapshot().stepFunctions).toEqual({ executions: 0, transitions: 1, byExecution: { 'g-3': ['C'] } });
  });
});
