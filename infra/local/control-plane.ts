import * as http from 'node:http';
import { listenOnLoopback } from './emulators/ports';
import type { EventRouter } from './eventbridge';
import type { FunctionRuntime } from './functions';
import type { LocalKeys } from './emulators/kms';
import type { LocalSecrets } from './emulators/secrets';
import type { ExecutionDescription } from './stepfunctions';

export interface StepFunctionsApi {
  startExecution(arn: string, input: unknown, name?: string): { executionArn: string; startDate?: Date | string };
  describeExecution(arn: string): ExecutionDescription;
  sendTaskSuccess(token: string, output: unknown): void;
  sendTaskFailure(token: string, error?: string, cause?: string): void;
  sendTaskHeartbeat(token: string): void;
}

/**
 * The AWS APIs our functions and emulators call on the twin itself: EventBridge PutEvents,
 * Lambda Invoke (Cognito triggers), the Step Functions calls and Secrets Manager's
 * GetSecretValue and KMS's Sign and GetPublicKey, on one local endpoint that the SDK reaches
 * through AWS_ENDPOINT_URL_EVENTBRIDGE / _LAMBDA / _SFN / _SECRETS_MANAGER / _KMS.
 */
export class ControlPlane {
  private server?: http.Server;

  constructor(
    private readonly deps: {
      events: EventRouter;
      functions: FunctionRuntime;
      sfn?: StepFunctionsApi;
      secrets?: LocalSecrets;
      keys?: LocalKeys;
      log?: (line: string) => void;
    },
  ) {}

  async listen(port: number): Promise<string> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        reply(res, 500, { __type: 'InternalFailure', message: (err as Error).message });
      });
    });
    await listenOnLoopback(this.server, port);
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://localhost');

    const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(url.pathname);
    if (invoke && req.method === 'POST') {
      const name = decodeURIComponent(invoke[1]);
      const payload = raw ? JSON.parse(raw) : {};
      if (!this.deps.functions.find(name)) {
        reply(res, 404, { Type: 'User', Message: `Function not found: ${name}` }, { 'x-amzn-errortype': 'ResourceNotFoundException' });
        return;
      }
      if (req.headers['x-amz-invocation-type'] === 'Event') {
        this.deps.functions.invoke(name, payload).catch((e) => this.deps.log?.(`async invoke ${name}: ${e.message}`));
        res.writeHead(202).end();
        return;
      }
      try {
        const result = await this.deps.functions.invoke(name, payload);
        reply(res, 200, result ?? null);
      } catch (err) {
        const e = err as Error;
        this.deps.log?.(`invoke ${name} failed: ${e.name}: ${e.message}`);
        reply(res, 200, { errorType: e.name, errorMessage: e.message }, { 'x-amz-function-error': 'Unhandled' });
      }
      return;
    }

    // A scheduled rule fired on demand (`npm start` users; tests call twin.events.runScheduled), `?time=` as if fired then.
    const schedule = /^\/_twin\/schedules\/([^/]+)$/.exec(url.pathname);
    if (schedule && req.method === 'POST') {
      try {
        const rules = await this.deps.events.runScheduled(decodeURIComponent(schedule[1]), url.searchParams.get('time') ?? undefined);
        reply(res, 200, { delivered: rules }, { 'content-type': 'application/json' });
      } catch (err) {
        reply(res, 404, { message: (err as Error).message }, { 'content-type': 'application/json' });
      }
      return;
    }

    const target = String(req.headers['x-amz-target'] ?? '');
    const body = raw ? JSON.parse(raw) : {};
    try {
      switch (target) {
        case 'AWSEvents.PutEvents':
          reply(res, 200, this.deps.events.putEvents(body.Entries ?? []));
          return;
        case 'secretsmanager.GetSecretValue':
          if (!this.deps.secrets) throw Object.assign(new Error('No secrets in this template'), { name: 'ResourceNotFoundException' });
          reply(res, 200, this.deps.secrets.getSecretValue(body.SecretId, body.VersionStage));
          return;
        case 'TrentService.Sign':
          reply(res, 200, this.keys().sign(body));
          return;
        case 'TrentService.GetPublicKey':
          reply(res, 200, this.keys().getPublicKey(body));
          return;
        case 'AWSStepFunctions.StartExecution': {
          const out = this.sfn().startExecution(body.stateMachineArn, body.input ? JSON.parse(body.input) : {}, body.name);
          reply(res, 200, { executionArn: out.executionArn, startDate: new Date(out.startDate ?? Date.now()).getTime() / 1000 });
          return;
        }
        case 'AWSStepFunctions.DescribeExecution': {
          // As the service answers: times in epoch seconds, input and output as JSON text.
          const described = this.sfn().describeExecution(body.executionArn);
          const epoch = (date: string | undefined) => (date === undefined ? undefined : new Date(date).getTime() / 1000);
          reply(res, 200, {
            ...described,
            input: JSON.stringify(described.input),
            output: described.output === undefined ? undefined : JSON.stringify(described.output),
            startDate: epoch(described.startDate),
            stopDate: epoch(described.stopDate),
          });
          return;
        }
        case 'AWSStepFunctions.SendTaskSuccess':
          this.sfn().sendTaskSuccess(body.taskToken, JSON.parse(body.output ?? '{}'));
          reply(res, 200, {});
          return;
        case 'AWSStepFunctions.SendTaskFailure':
          this.sfn().sendTaskFailure(body.taskToken, body.error, body.cause);
          reply(res, 200, {});
          return;
        case 'AWSStepFunctions.SendTaskHeartbeat':
          this.sfn().sendTaskHeartbeat(body.taskToken);
          reply(res, 200, {});
          return;
      }
    } catch (err) {
      const e = err as Error;
      reply(res, 400, { __type: e.name || 'ValidationException', message: e.message });
      return;
    }
    reply(res, 400, { __type: 'UnknownOperationException', message: `The twin does not serve ${target || url.pathname}` });
  }

  private keys(): LocalKeys {
    if (!this.deps.keys) throw Object.assign(new Error('No signing keys in this template'), { name: 'NotFoundException' });
    return this.deps.keys;
  }

  private sfn(): StepFunctionsApi {
    if (!this.deps.sfn) throw Object.assign(new Error('No state machines in this template'), { name: 'StateMachineDoesNotExist' });
    return this.deps.sfn;
  }
}

function reply(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', ...headers }).end(JSON.stringify(body));
}
