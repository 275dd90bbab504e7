// Runs the template's state machines locally on aws-local-stepfunctions, with the parts of Step
// Functions that library lacks: task tokens (.waitForTaskToken with TimeoutSeconds and
// HeartbeatSeconds), the lambda:invoke and events:putEvents integrations, the Context object
// ($$.Execution.Id, $$.StateMachine.Id, $$.Task.Token), execution bookkeeping (describe, list,
// stop, history) and time scaling for tests.
//
// How: the library runs a transformed copy of each definition in which every Task state (and every
// Wait state, rewritten as a Task) is overridden by a local handler, so the library never calls
// AWS and never sleeps on its own; the handlers below do the work. Retry/Catch stay the library's
// (they match on error.name).
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ExecutionAbortedError, ExecutionError, ExecutionTimeoutError, StateMachine } from 'aws-local-stepfunctions';
import { CACHE_DIR, cacheOff, pruneUnused, sha256, touch, writeAtomically } from './synth-cache';

/* eslint-disable @typescript-eslint/no-explicit-any -- ASL definitions are untyped JSON */
type Json = any;

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

export interface ExecutionDescription {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: ExecutionStatus;
  input: unknown;
  /** Parsed JSON (the SFN API returns it as a string). */
  output?: unknown;
  error?: string;
  cause?: string;
  /** ISO 8601 */
  startDate: string;
  stopDate?: string;
}

export interface HistoryEvent {
  /** ISO 8601 */
  timestamp: string;
  /** aws-local-stepfunctions event types: ExecutionStarted, StateEntered, StateExited, StateFailed, StateRetried, StateCaught, ... */
  type: string;
  stateName?: string;
  /** The state's type in the original definition (Wait states run as Tasks internally). */
  stateType?: string;
  error?: string;
  cause?: string;
  /** Map iteration index, for states inside a Map. */
  index?: number;
}

/** One entry of EventBridge PutEvents, as the API takes it (Detail is a JSON string). */
interface PutEventsEntry {
  Source?: string;
  DetailType?: string;
  Detail?: string;
  EventBusName?: string;
  Resources?: string[];
  Time?: string;
}

interface TaskInvocation {
  executionArn: string;
  stateName: string;
  /** Set for `.waitForTaskToken` resources. */
  taskToken?: string;
}

export interface StateMachineRunnerOptions {
  /** Runs a Lambda handler. Rejections become task errors named after `error.name`. */
  invokeLambda(functionArn: string, payload: unknown): Promise<unknown>;
  /** Backs `arn:aws:states:::events:putEvents`. May return the PutEvents response. */
  putEvents?(entries: PutEventsEntry[]): Promise<unknown> | unknown;
  /**
   * Further service integrations by resource ARN without its `.sync`/`.waitForTaskToken` suffix,
   * e.g. 'arn:aws:states:::dynamodb:putItem'. Receives the task's effective Parameters.
   */
  integrations?: Record<string, (parameters: unknown, task: TaskInvocation) => Promise<unknown> | unknown>;
  /** Multiplies Wait durations, TimeoutSeconds and HeartbeatSeconds (e.g. 0.001 in tests). Default 1. */
  waitTimeScale?: number;
  /** Multiplies Retry IntervalSeconds and MaxDelaySeconds. Default 1. */
  retryIntervalScale?: number;
  /** Called once per execution when it stops (for "Execution Status Change" events, logs, ...). */
  onExecutionFinished?(execution: ExecutionDescription): void;
  /** Called when an execution starts and each time one of its states is entered (the twin's meters). */
  onExecutionStarted?(): void;
  onStateEntered?(executionName: string, stateName: string): void;
}

/** Errors the SFN API would return; `name` is the API's exception name. */
export class StepFunctionsError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

// ---------------------------------------------------------------------------------------------
// Internals

const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';
const EVENTS_PUT = 'arn:aws:states:::events:putEvents';
const WAIT_RESOURCE = 'arn:aws:states:::twin:wait';
const PLAIN_LAMBDA_ARN = /^arn:aws[a-z-]*:lambda:[^:]*:[^:]*:function:/;
/** setTimeout's ceiling (~24.8 days); anything longer would fire immediately. */
const MAX_TIMER_MS = 2_147_483_647;
/**
 * $$.Task.Token resolves to this in the Context object; the task handler swaps it for a fresh
 * token. (The library evaluates Parameters before calling the handler and has no token support.)
 */
const TOKEN_PLACEHOLDER = 'twin-task-token-placeholder-4f9c2d17';

interface TaskMeta {
  kind: 'lambda' | 'lambdaInvoke' | 'putEvents' | 'integration' | 'wait';
  resource: string;
  baseResource: string;
  waitForTaskToken: boolean;
  /** Scaled, in ms; undefined: no timeout of ours. */
  timeoutMs?: number;
  heartbeatMs?: number;
  originalType: string;
}

interface RegisteredMachine {
  name: string;
  arn: string;
  machine: StateMachine;
  tasks: Map<string, TaskMeta>;
  stateTypes: Map<string, string>;
}

interface PendingToken {
  executionArn: string;
  stateName: string;
  resolve(output: unknown): void;
  reject(error: Error): void;
  heartbeatMs?: number;
  heartbeatTimer?: NodeJS.Timeout;
}

interface ExecutionRecord {
  description: ExecutionDescription;
  controller: AbortController;
  abortLibrary?: () => void;
  stopReason?: { error?: string; cause?: string };
  done: Promise<void>;
  history: HistoryEvent[];
  tokens: Set<string>;
}

// The library's StatesTimeoutError is not exported, but its Retry/Catch logic treats instances
// specially (States.TaskFailed does not match them). Our timeouts must be instances too, so capture
// the class once by letting a throwaway Task time out after a microsecond.
type TimeoutErrorClass = new () => Error;
let timeoutErrorClass: Promise<TimeoutErrorClass> | undefined;
function statesTimeoutErrorClass(): Promise<TimeoutErrorClass> {
  timeoutErrorClass ??= (async () => {
    const probe = new StateMachine(
      { StartAt: 'T', States: { T: { Type: 'Task', Resource: 'arn:aws:lambda:us-east-1:000000000000:function:probe', TimeoutSeconds: 1e-6, End: true } } } as Json,
      { validationOptions: { noValidate: true } },
    );
    const execution = probe.run({}, { overrides: { taskResourceLocalHandlers: { T: () => new Promise<never>(() => undefined) } } });
    try {
      await execution.result;
    } catch (err) {
      const cause = (err as Error).cause as Error | undefined;
      if (cause?.name === 'States.Timeout') return cause.constructor as TimeoutErrorClass;
    }
    throw new Error('aws-local-stepfunctions: could not obtain its States.Timeout error class');
  })();
  return timeoutErrorClass;
}

/**
 * Definitions the library's validator passed, in this process and in the twin's cache (decision
 * 034): the validation costs ~0.3 s a machine (asl-validator compiles its schemas every time), and
 * every twin of a test run registers the same machines. Keyed by the definition and the library's
 * version, so an upgrade validates again; `TWIN_CACHE=off` validates every time.
 */
const validatedDefinitions = new Set<string>();
const VALIDATED_DIR = path.join(CACHE_DIR, 'validated-state-machines');
/** The library's version, from the package.json above its entry (its exports do not list that file). */
function validatorVersion(): string {
  for (let dir = path.dirname(require.resolve('aws-local-stepfunctions')); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const pkg = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string }) : {};
    if (pkg.name === 'aws-local-stepfunctions' && pkg.version) return pkg.version;
  }
  throw new Error('aws-local-stepfunctions: no package.json with its version above its entry');
}

function validateOnce(definition: Json): void {
  const key = sha256(JSON.stringify({ definition, library: validatorVersion() }));
  const marker = path.join(VALIDATED_DIR, key);
  if (validatedDefinitions.has(key)) return;
  if (!cacheOff() && fs.existsSync(marker)) {
    touch(marker);
  } else {
    // The library's own validation of the untouched definition (ARN syntax is checked by us).
    new StateMachine(definition, { validationOptions: { checkArn: false, checkPaths: true } });
    if (!cacheOff()) {
      writeAtomically(marker, '');
      pruneUnused(VALIDATED_DIR);
    }
  }
  validatedDefinitions.add(key);
}

function clone<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

function scaledMs(seconds: number, scale: number): number {
  return Math.min(Math.max(seconds * 1000 * scale, 0), MAX_TIMER_MS);
}

function classifyResource(resource: string, integrations: StateMachineRunnerOptions['integrations']): Pick<TaskMeta, 'kind' | 'baseResource' | 'waitForTaskToken'> {
  const waitForTaskToken = resource.endsWith('.waitForTaskToken');
  // Any partition (aws, aws-cn, aws-us-gov) names the same integration.
  const baseResource = resource.replace(/\.(waitForTaskToken|sync(:2)?)$/, '').replace(/^arn:aws[a-z-]*:states:::/, 'arn:aws:states:::');
  if (baseResource === LAMBDA_INVOKE) return { kind: 'lambdaInvoke', baseResource, waitForTaskToken };
  if (baseResource === EVENTS_PUT) return { kind: 'putEvents', baseResource, waitForTaskToken };
  if (PLAIN_LAMBDA_ARN.test(resource)) return { kind: 'lambda', baseResource: resource, waitForTaskToken: false };
  if (integrations?.[baseResource]) return { kind: 'integration', baseResource, waitForTaskToken };
  throw new StepFunctionsError('InvalidDefinition', `Unsupported Task resource in the local twin: ${resource}`);
}

/** A Task error as Step Functions reports a failed Lambda: name = errorType, cause = JSON. */
function lambdaError(err: unknown): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  const errorType = e.name || 'Error';
  const failure = new Error(JSON.stringify({ errorType, errorMessage: e.message, trace: (e.stack ?? '').split('\n') }));
  failure.name = errorType;
  return failure;
}

function abortError(): Error {
  const e = new Error('Execution stopped');
  e.name = 'States.Runtime';
  return e;
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts; leaves no timer behind either way. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, Math.min(Math.max(ms, 0), MAX_TIMER_MS));
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `promise`, but rejecting as soon as `signal` aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

export class StateMachineRunner {
  private readonly machines = new Map<string, RegisteredMachine>();
  private readonly executions = new Map<string, ExecutionRecord>();
  private readonly tokens = new Map<string, PendingToken>();
  /** Tokens whose task is over: SendTask* on them answers TaskTimedOut, like Step Functions. */
  private readonly closedTokens = new Set<string>();
  private readonly waitScale: number;
  private readonly retryScale: number;

  constructor(private readonly opts: StateMachineRunnerOptions) {
    // aws-local-stepfunctions calls Promise.withResolvers in every Task; without it (Node < 22)
    // every Task fails, and a States.ALL Catch would hide that. Fail loudly instead.
    if (typeof (Promise as unknown as { withResolvers?: unknown }).withResolvers !== 'function') {
      throw new Error('StateMachineRunner needs Promise.withResolvers (Node >= 22); run the twin with the Node in node_modules/.bin');
    }
    this.waitScale = opts.waitTimeScale ?? 1;
    this.retryScale = opts.retryIntervalScale ?? 1;
  }

  /** Validates the definition (ASL validator + supported resources) and registers it under `arn`. */
  register(name: string, arn: string, definition: object | string): void {
    const original: Json = typeof definition === 'string' ? JSON.parse(definition) : clone(definition);
    validateOnce(original);
    const tasks = new Map<string, TaskMeta>();
    const stateTypes = new Map<string, string>();
    const transformed = clone(original);
    this.transformStates(transformed.States, tasks, stateTypes);
    if (typeof original.TimeoutSeconds === 'number') {
      transformed.TimeoutSeconds = scaledMs(original.TimeoutSeconds, this.waitScale) / 1000;
    }
    const machine = new StateMachine(transformed, { validationOptions: { noValidate: true } });
    this.machines.set(arn, { name, arn, machine, tasks, stateTypes });
  }

  private transformStates(states: Record<string, Json>, tasks: Map<string, TaskMeta>, stateTypes: Map<string, string>) {
    for (const [stateName, state] of Object.entries(states)) {
      if (stateTypes.has(stateName)) {
        // Overrides are keyed by state name across nested Parallel/Map machines.
        throw new StepFunctionsError('InvalidDefinition', `State name "${stateName}" is used more than once`);
      }
      stateTypes.set(stateName, state.Type);
      for (const field of ['Retry', 'Catch'] as const) {
        for (const rule of state[field] ?? []) {
          // Step Functions' States.Timeout also matches heartbeat timeouts.
          if (rule.ErrorEquals?.includes('States.Timeout') && !rule.ErrorEquals.includes('States.HeartbeatTimeout')) {
            rule.ErrorEquals.push('States.HeartbeatTimeout');
          }
        }
      }
      if (this.retryScale !== 1) {
        for (const retrier of state.Retry ?? []) {
          retrier.IntervalSeconds = (retrier.IntervalSeconds ?? 1) * this.retryScale;
          if (retrier.MaxDelaySeconds !== undefined) retrier.MaxDelaySeconds *= this.retryScale;
        }
      }
      if (state.Type === 'Task') {
        const resource: string = state.Resource;
        const meta: TaskMeta = {
          ...classifyResource(resource, this.opts.integrations),
          resource,
          originalType: 'Task',
          timeoutMs: typeof state.TimeoutSeconds === 'number' ? scaledMs(state.TimeoutSeconds, this.waitScale) : undefined,
          heartbeatMs: typeof state.HeartbeatSeconds === 'number' ? scaledMs(state.HeartbeatSeconds, this.waitScale) : undefined,
        };
        tasks.set(stateName, meta);
        // Our handler enforces TimeoutSeconds (scaled) and HeartbeatSeconds; the library's own
        // timer must never fire first, and its default (60 s) is far below Step Functions' own.
        // TimeoutSecondsPath stays with the library (unscaled).
        delete state.HeartbeatSeconds;
        delete state.HeartbeatSecondsPath;
        if (state.TimeoutSecondsPath === undefined) state.TimeoutSeconds = MAX_TIMER_MS / 1000;
      } else if (state.Type === 'Wait') {
        tasks.set(stateName, { kind: 'wait', resource: WAIT_RESOURCE, baseResource: WAIT_RESOURCE, waitForTaskToken: false, originalType: 'Wait' });
        const parameters: Json = { 'input.$': '$' };
        if (state.Seconds !== undefined) parameters.seconds = state.Seconds;
        if (state.SecondsPath !== undefined) parameters['seconds.$'] = state.SecondsPath;
        if (state.Timestamp !== undefined) parameters.timestamp = state.Timestamp;
        if (state.TimestampPath !== undefined) parameters['timestamp.$'] = state.TimestampPath;
        for (const key of ['Seconds', 'SecondsPath', 'Timestamp', 'TimestampPath']) delete state[key];
        // A Task with the Wait's InputPath/OutputPath and the default ResultPath ('$') whose
        // handler returns its input is a Wait: same output, but the pause is ours (scaled, abortable).
        state.Type = 'Task';
        state.Resource = WAIT_RESOURCE;
        state.Parameters = parameters;
        state.TimeoutSeconds = MAX_TIMER_MS / 1000;
      } else if (state.Type === 'Parallel') {
        for (const branch of state.Branches ?? []) this.transformStates(branch.States, tasks, stateTypes);
      } else if (state.Type === 'Map') {
        const processor = state.ItemProcessor ?? state.Iterator;
        if (processor) this.transformStates(processor.States, tasks, stateTypes);
      }
    }
  }

  /**
   * Starts an execution; `name` defaults to a UUID. Starting the same name again while it runs
   * with the same input returns the running execution (as Step Functions does); otherwise
   * ExecutionAlreadyExists.
   */
  startExecution(stateMachineArn: string, input: unknown, name?: string): { executionArn: string; startDate: string } {
    const machine = this.machines.get(stateMachineArn);
    if (!machine) throw new StepFunctionsError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${stateMachineArn}'`);
    const executionName = name ?? randomUUID();
    const executionArn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${executionName}`;
    const inputValue = input === undefined ? {} : clone(input);
    const existing = this.executions.get(executionArn);
    if (existing) {
      if (existing.description.status === 'RUNNING' && JSON.stringify(existing.description.input) === JSON.stringify(inputValue)) {
        return { executionArn, startDate: existing.description.startDate };
      }
      throw new StepFunctionsError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    const record: ExecutionRecord = {
      description: {
        executionArn,
        stateMachineArn,
        name: executionName,
        status: 'RUNNING',
        input: inputValue,
        startDate: new Date().toISOString(),
      },
      controller: new AbortController(),
      done: Promise.resolve(),
      history: [],
      tokens: new Set(),
    };
    this.executions.set(executionArn, record);
    this.opts.onExecutionStarted?.();
    record.done = this.run(record, machine);
    return { executionArn, startDate: record.description.startDate };
  }

  private async run(record: ExecutionRecord, machine: RegisteredMachine): Promise<void> {
    const { description } = record;
    try {
      const TimeoutError = await statesTimeoutErrorClass();
      if (record.controller.signal.aborted) throw new ExecutionAbortedError();
      const handlers: Record<string, (input: Json) => Promise<Json>> = {};
      for (const [stateName, meta] of machine.tasks) {
        handlers[stateName] = (input) => this.runTask(record, stateName, meta, input, TimeoutError);
      }
      const context = {
        Execution: {
          Id: description.executionArn,
          Name: description.name,
          StartTime: description.startDate,
          RoleArn: `arn:aws:iam::${description.stateMachineArn.split(':')[4] || '000000000000'}:role/twin-state-machine`,
        },
        StateMachine: { Id: description.stateMachineArn, Name: machine.name },
        Task: { Token: TOKEN_PLACEHOLDER },
      };
      const execution = machine.machine.run(description.input as Json, { overrides: { taskResourceLocalHandlers: handlers }, context });
      record.abortLibrary = execution.abort;
      void this.recordHistory(record, machine, execution.eventLogs);
      const output = await execution.result;
      this.finish(record, 'SUCCEEDED', { output });
    } catch (err) {
      if (err instanceof ExecutionAbortedError || record.stopReason) {
        this.finish(record, 'ABORTED', record.stopReason ?? {});
      } else if (err instanceof ExecutionTimeoutError) {
        this.finish(record, 'TIMED_OUT', { error: 'States.Timeout', cause: 'The execution ran longer than the state machine TimeoutSeconds' });
      } else if (err instanceof ExecutionError) {
        const cause = err.cause as Error;
        this.finish(record, 'FAILED', { error: cause?.name, cause: cause?.message });
      } else {
        this.finish(record, 'FAILED', { error: 'States.Runtime', cause: (err as Error)?.message ?? String(err) });
      }
    }
  }

  private async recordHistory(record: ExecutionRecord, machine: RegisteredMachine, events: AsyncGenerator<Json>) {
    try {
      for await (const event of events) {
        const name: string | undefined = event.state?.name;
        if (event.type === 'StateEntered') this.opts.onStateEntered?.(record.description.name, name ?? '');
        record.history.push({
          timestamp: new Date(event.timestamp).toISOString(),
          type: event.type,
          ...(name ? { stateName: name, stateType: machine.stateTypes.get(name) ?? event.state?.type } : {}),
          ...(event.Error !== undefined ? { error: event.Error, cause: typeof event.Cause === 'string' ? event.Cause : JSON.stringify(event.Cause) } : {}),
          ...(event.index !== undefined ? { index: event.index } : {}),
        });
      }
    } catch {
      // history is best effort
    }
  }

  private finish(record: ExecutionRecord, status: ExecutionStatus, result: { output?: unknown; error?: string; cause?: string }) {
    if (record.description.status !== 'RUNNING') return;
    Object.assign(record.description, { status, stopDate: new Date().toISOString() });
    if (result.output !== undefined) record.description.output = result.output;
    if (result.error !== undefined) record.description.error = result.error;
    if (result.cause !== undefined) record.description.cause = result.cause;
    // Stop whatever is still pending for this execution (token waits, Lambda calls, sleeps).
    record.controller.abort();
    for (const token of record.tokens) this.closeToken(token);
    try {
      this.opts.onExecutionFinished?.(this.describeExecution(record.description.executionArn));
    } catch (err) {
      console.error('[stepfunctions] onExecutionFinished failed:', err);
    }
  }

  private async runTask(record: ExecutionRecord, stateName: string, meta: TaskMeta, input: Json, TimeoutError: TimeoutErrorClass): Promise<Json> {
    const signal = record.controller.signal;
    if (signal.aborted) throw abortError();
    if (meta.kind === 'wait') {
      const until = input.timestamp !== undefined ? Date.parse(input.timestamp) : undefined;
      const ms = until !== undefined ? (until - Date.now()) * this.waitScale : (Number(input.seconds) || 0) * 1000 * this.waitScale;
      await abortableSleep(ms, signal);
      return input.input;
    }

    let token: string | undefined;
    let tokenResult: Promise<unknown> | undefined;
    if (meta.waitForTaskToken || JSON.stringify(input ?? null).includes(TOKEN_PLACEHOLDER)) {
      token = randomBytes(48).toString('base64url');
      input = JSON.parse(JSON.stringify(input).split(TOKEN_PLACEHOLDER).join(token));
    }
    if (meta.waitForTaskToken && token) {
      // Registered before the call: a handler may report success before it even returns.
      tokenResult = this.awaitToken(record, stateName, token, meta.heartbeatMs, TimeoutError);
      tokenResult.catch(() => undefined); // observed below; avoid an unhandled rejection meanwhile
    }

    const work = (async () => {
      const callResult = await this.callResource(record, stateName, meta, input, token);
      return tokenResult ? await tokenResult : callResult;
    })();

    let timer: NodeJS.Timeout | undefined;
    const timeout =
      meta.timeoutMs === undefined
        ? undefined
        : new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new TimeoutError()), meta.timeoutMs);
          });
    try {
      return await raceAbort(timeout ? Promise.race([work, timeout]) : work, signal);
    } finally {
      if (timer) clearTimeout(timer);
      if (token) this.closeToken(token);
      work.catch(() => undefined);
    }
  }

  private async callResource(record: ExecutionRecord, stateName: string, meta: TaskMeta, input: Json, token?: string): Promise<Json> {
    const signal = record.controller.signal;
    const invoke = async (functionName: string, payload: unknown) => {
      try {
        return await raceAbort(Promise.resolve().then(() => this.opts.invokeLambda(functionName, payload)), signal);
      } catch (err) {
        if (signal.aborted) throw err;
        throw lambdaError(err);
      }
    };
    switch (meta.kind) {
      case 'lambda':
        return (await invoke(meta.resource, input)) ?? null;
      case 'lambdaInvoke': {
        const params = input ?? {};
        if (!params.FunctionName) throw Object.assign(new Error('lambda:invoke needs Parameters.FunctionName'), { name: 'States.Runtime' });
        const payload = await invoke(params.FunctionName, params.Payload ?? {});
        // The shape Step Functions returns for the optimized Lambda integration.
        return {
          ExecutedVersion: '$LATEST',
          Payload: payload ?? null,
          SdkHttpMetadata: { HttpStatusCode: 200 },
          SdkResponseMetadata: { RequestId: randomUUID() },
          StatusCode: 200,
        };
      }
      case 'putEvents': {
        if (!this.opts.putEvents) throw Object.assign(new Error('events:putEvents is not wired in this runner'), { name: 'States.Runtime' });
        const entries: PutEventsEntry[] = (input?.Entries ?? []).map((entry: Json) => ({
          ...entry,
          ...(entry.Detail !== undefined && typeof entry.Detail !== 'string' ? { Detail: JSON.stringify(entry.Detail) } : {}),
        }));
        const response: Json = await raceAbort(Promise.resolve().then(() => this.opts.putEvents!(entries)), signal);
        return response?.Entries ? response : { Entries: entries.map(() => ({ EventId: randomUUID() })), FailedEntryCount: 0 };
      }
      case 'integration': {
        const handler = this.opts.integrations![meta.baseResource];
        const task: TaskInvocation = { executionArn: record.description.executionArn, stateName, ...(token ? { taskToken: token } : {}) };
        return (await raceAbort(Promise.resolve().then(() => handler(input, task)), signal)) ?? null;
      }
      default:
        throw new Error(`unreachable: ${meta.kind}`);
    }
  }

  private awaitToken(record: ExecutionRecord, stateName: string, token: string, heartbeatMs: number | undefined, TimeoutError: TimeoutErrorClass): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const pending: PendingToken = { executionArn: record.description.executionArn, stateName, resolve, reject, heartbeatMs };
      this.tokens.set(token, pending);
      record.tokens.add(token);
      this.armHeartbeat(token, pending, TimeoutError);
    });
  }

  private armHeartbeat(token: string, pending: PendingToken, TimeoutError: TimeoutErrorClass) {
    if (pending.heartbeatMs === undefined) return;
    if (pending.heartbeatTimer) clearTimeout(pending.heartbeatTimer);
    pending.heartbeatTimer = setTimeout(() => {
      const error = new TimeoutError();
      error.name = 'States.HeartbeatTimeout';
      error.message = 'States.HeartbeatTimeout';
      this.closeToken(token);
      pending.reject(error);
    }, pending.heartbeatMs);
  }

  private closeToken(token: string) {
    const pending = this.tokens.get(token);
    if (!pending) return;
    if (pending.heartbeatTimer) clearTimeout(pending.heartbeatTimer);
    this.tokens.delete(token);
    this.executions.get(pending.executionArn)?.tokens.delete(token);
    this.closedTokens.add(token);
  }

  private takeToken(token: string): PendingToken {
    const pending = this.tokens.get(token);
    if (pending) return pending;
    if (this.closedTokens.has(token)) throw new StepFunctionsError('TaskTimedOut', 'Task Timed Out');
    throw new StepFunctionsError('InvalidToken', 'Invalid Token');
  }

  /** Completes a `.waitForTaskToken` task. `output` may be a value or its JSON string (as in the API). */
  sendTaskSuccess(taskToken: string, output: unknown): void {
    const pending = this.takeToken(taskToken);
    let value = output;
    if (typeof output === 'string') {
      try {
        value = JSON.parse(output);
      } catch {
        value = output;
      }
    }
    this.closeToken(taskToken);
    pending.resolve(value ?? null);
  }

  /** Fails a `.waitForTaskToken` task with `error` as the error name (what Retry/Catch match). */
  sendTaskFailure(taskToken: string, error?: string, cause?: string): void {
    const pending = this.takeToken(taskToken);
    const failure = new Error(cause ?? '');
    failure.name = error ?? '';
    this.closeToken(taskToken);
    pending.reject(failure);
  }

  /** Restarts the task's HeartbeatSeconds clock. */
  sendTaskHeartbeat(taskToken: string): void {
    const pending = this.takeToken(taskToken);
    if (pending.heartbeatMs !== undefined && pending.heartbeatTimer) {
      pending.heartbeatTimer.refresh();
    }
  }

  /** Tokens currently awaited (what an approval API would look up), oldest first. */
  pendingTaskTokens(executionArn?: string): Array<{ taskToken: string; executionArn: string; stateName: string }> {
    return [...this.tokens.entries()]
      .filter(([, p]) => !executionArn || p.executionArn === executionArn)
      .map(([taskToken, p]) => ({ taskToken, executionArn: p.executionArn, stateName: p.stateName }));
  }

  describeExecution(executionArn: string): ExecutionDescription {
    const record = this.executions.get(executionArn);
    if (!record) throw new StepFunctionsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
    return clone(record.description);
  }

  /** Resolves once the execution has stopped; rejects if it is still running after `timeoutMs` (default 30 s). */
  async waitForExecution(executionArn: string, timeoutMs = 30_000): Promise<ExecutionDescription> {
    const record = this.executions.get(executionArn);
    if (!record) throw new StepFunctionsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([record.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    } finally {
      clearTimeout(timer);
    }
    const description = this.describeExecution(executionArn);
    if (description.status === 'RUNNING') {
      const last = record.history.at(-1);
      throw new Error(`Execution ${executionArn} still RUNNING after ${timeoutMs} ms${last?.stateName ? ` (in state ${last.stateName})` : ''}`);
    }
    return description;
  }

  getExecutionHistory(executionArn: string): HistoryEvent[] {
    const record = this.executions.get(executionArn);
    if (!record) throw new StepFunctionsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
    return clone(record.history);
  }

  /** Newest first, like ListExecutions. */
  listExecutions(stateMachineArn: string, statusFilter?: ExecutionStatus): ExecutionDescription[] {
    return [...this.executions.values()]
      .map((r) => r.description)
      .filter((d) => d.stateMachineArn === stateMachineArn && (!statusFilter || d.status === statusFilter))
      .sort((a, b) => b.startDate.localeCompare(a.startDate))
      .map((d) => clone(d));
  }

  listStateMachines(): Array<{ name: string; stateMachineArn: string }> {
    return [...this.machines.values()].map((m) => ({ name: m.name, stateMachineArn: m.arn }));
  }

  /** StopExecution: the execution ends ABORTED with the given error and cause. */
  stopExecution(executionArn: string, error?: string, cause?: string): { stopDate: string } {
    const record = this.executions.get(executionArn);
    if (!record) throw new StepFunctionsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
    if (record.description.status === 'RUNNING') {
      record.stopReason = { ...(error !== undefined ? { error } : {}), ...(cause !== undefined ? { cause } : {}) };
      record.abortLibrary?.();
      // Also settles an execution whose library run has not started yet.
      this.finish(record, 'ABORTED', record.stopReason);
    }
    return { stopDate: record.description.stopDate ?? new Date().toISOString() };
  }

  /** Aborts every running execution and resolves when all have settled (no timers left behind). */
  async stopAll(): Promise<void> {
    const running = [...this.executions.values()].filter((r) => r.description.status === 'RUNNING');
    for (const record of running) this.stopExecution(record.description.executionArn);
    await Promise.all([...this.executions.values()].map((r) => r.done));
  }
}
