// The emulator's HTTP surface: Replicate's API under `/v1` (Bearer token, API faults), the files
// it serves under `/files/`, and a plain page per prediction or training at its `urls.web`.
import type * as http from 'node:http';
import type { ModelVersion, Page } from 'replicate';
import type { Faults } from './faults';
import type { Models } from './models';
import type { LivePrediction, Predictions } from './predictions';
import { ApiProblem, type Files, isFinal, notFound } from './shared';
import type { Trainings } from './trainings';

/** `Prefer: wait` holds the create's answer this long at most (Replicate: 60 s, `wait=n` for 1 to 60). */
const MAX_PREFER_WAIT_SECONDS = 60;
const MAX_BODY_BYTES = 1024 * 1024;

export interface ApiDeps {
  token: string;
  webhookSecret: string;
  faults: Faults;
  files: Files;
  models: Models;
  predictions: Predictions;
  trainings: Trainings;
  stopped: () => boolean;
  log: (line: string) => void;
}

const escapeHtml = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiProblem(413, 'Request too large', 'The request body is larger than 1 MB');
    chunks.push(c as Buffer);
  }
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error();
    return body;
  } catch {
    throw new ApiProblem(400, 'Invalid JSON', 'The request body is not a JSON object');
  }
}

/** `Prefer: wait` or `wait=n`: the create answers once the prediction has ended, or after n seconds. */
function preferredWait(req: http.IncomingMessage): number | undefined {
  const wait = /(?:^|[,;\s])wait(?:=([^,;\s]*))?/.exec(String(req.headers.prefer ?? ''));
  if (!wait) return undefined;
  const seconds = wait[1] === undefined ? MAX_PREFER_WAIT_SECONDS : Number(wait[1]);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_PREFER_WAIT_SECONDS) {
    throw new ApiProblem(400, 'Invalid Prefer header', `Prefer: wait=n takes a whole number of seconds from 1 to ${MAX_PREFER_WAIT_SECONDS}`);
  }
  return seconds;
}

/** Answers Replicate's API; resolves once answered, throws an ApiProblem for an error answer. */
export function replicateApi(deps: ApiDeps) {
  const { faults, files, models, predictions, trainings } = deps;

  const settled = async (p: LivePrediction, seconds: number | undefined): Promise<LivePrediction> => {
    const until = Date.now() + (seconds ?? 0) * 1000;
    while (!isFinal(p.status) && Date.now() < until && !deps.stopped()) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return p;
  };

  return async (req: http.IncomingMessage, res: http.ServerResponse, url: URL, method: string): Promise<void> => {
    const file = /^\/files\/[a-z2-7]+\/(\d+\.png|trained_model\.tar)$/.exec(url.pathname);
    if (file && (method === 'GET' || method === 'HEAD')) {
      const found = files.get(url.pathname);
      if (!found) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      res.writeHead(200, { 'content-type': found.contentType, 'content-length': String(found.body.length) }).end(method === 'HEAD' ? undefined : found.body);
      return;
    }
    const web = /^\/p\/([a-z2-7]+)$/.exec(url.pathname);
    if (web && method === 'GET') {
      const prediction = predictions.find(web[1]);
      const training = prediction ? undefined : trainings.find(web[1]);
      const shown = prediction ?? training;
      if (!shown) throw notFound();
      const kind = prediction ? 'Prediction' : 'Training';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><meta charset="utf-8"><title>${kind} ${shown.id}</title>` +
          `<h1>${kind} ${shown.id} (local emulator)</h1><p>${escapeHtml(shown.model)}: <strong>${shown.status}</strong>` +
          `${shown.error ? ` - ${escapeHtml(String(shown.error))}` : ''}</p><pre>${escapeHtml(shown.logs ?? '')}</pre>`,
      );
      return;
    }
    if (!url.pathname.startsWith('/v1/')) throw notFound();

    if (req.headers.authorization !== `Bearer ${deps.token}`) {
      throw new ApiProblem(401, 'Unauthenticated', 'You did not pass a valid authentication token');
    }
    const fault = faults.take(['http-5xx', 'http-429']);
    if (fault?.kind === 'http-5xx') throw new ApiProblem(503, 'Service unavailable', 'Emulated server error');
    if (fault?.kind === 'http-429') {
      const wait = fault.retryAfterSeconds ?? 1;
      throw new ApiProblem(429, 'Request was throttled', `Request was throttled. Expected available in ${wait} seconds.`, { 'retry-after': String(wait) });
    }

    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    /** The created prediction's answer, unless a fault loses it: the connection closes with nothing sent. */
    const created = (p: LivePrediction) => {
      if (!p.loseAnswer) return send(201, predictions.publicView(p));
      deps.log(`${p.id}: the create's answer is lost (fault)`);
      req.socket.destroy();
    };
    const { pathname } = url;

    if (method === 'GET' && pathname === '/v1/webhooks/default/secret') return send(200, { key: deps.webhookSecret });
    if (method === 'GET' && pathname === '/v1/account') return send(200, { type: 'organization', username: models.account, name: models.account, github_url: null });
    if (method === 'GET' && pathname === '/v1/hardware') return send(200, models.hardware());
    if (method === 'POST' && pathname === '/v1/models') return send(201, models.create(await readJson(req)));

    const model = /^\/v1\/models\/([^/]+)\/([^/]+)(?:\/(predictions|versions)(?:\/([^/]+)(\/trainings)?)?)?$/.exec(pathname);
    if (model) {
      const [owner, name] = [decodeURIComponent(model[1]), decodeURIComponent(model[2])];
      const [, , , sub, version, training] = model;
      if (!sub && method === 'GET') return send(200, models.get(owner, name));
      if (sub === 'predictions' && !version && method === 'POST') {
        const body = await readJson(req);
        const wait = preferredWait(req);
        return created(await settled(predictions.createByModel(body, `${owner}/${name}`, req.headers), wait));
      }
      if (sub === 'versions' && !version && method === 'GET') return send(200, { results: models.versions(owner, name) } satisfies Page<ModelVersion>);
      if (sub === 'versions' && version && !training && method === 'GET') return send(200, models.version(owner, name, version));
      if (sub === 'versions' && version && !training && method === 'DELETE') {
        const deleted = models.deleteVersion(owner, name, version);
        predictions.deleteVersion(deleted);
        trainings.deleteVersion(`${owner}/${name}`, deleted);
        deps.log(`version ${owner}/${name}:${deleted} deleted`);
        res.writeHead(202).end();
        return;
      }
      if (sub === 'versions' && version && training && method === 'POST') return send(201, trainings.create(`${owner}/${name}`, version, await readJson(req)));
    }

    if (method === 'POST' && pathname === '/v1/predictions') {
      const body = await readJson(req);
      const wait = preferredWait(req);
      return created(await settled(predictions.createByVersion(body, req.headers), wait));
    }
    if (method === 'GET' && pathname === '/v1/predictions') return send(200, predictions.list(url));
    const prediction = /^\/v1\/predictions\/([a-z2-7]+)(\/cancel)?$/.exec(pathname);
    if (prediction && !prediction[2] && method === 'GET') return send(200, predictions.get(prediction[1]));
    if (prediction && prediction[2] && method === 'POST') return send(200, predictions.cancel(prediction[1]));

    if (method === 'GET' && pathname === '/v1/trainings') return send(200, trainings.list(url));
    const training = /^\/v1\/trainings\/([a-z2-7]+)(\/cancel)?$/.exec(pathname);
    if (training && !training[2] && method === 'GET') return send(200, trainings.get(training[1]));
    if (training && training[2] && method === 'POST') return send(200, trainings.cancel(training[1]));
    throw notFound();
  };
}
