// Runs one bundled Lambda handler inside a worker thread, the twin's stand-in for a Lambda
// container: the module loads once with the function's own environment, then serves
// invocations (several may be in flight, as with concurrent requests to a warm container).
const { parentPort, workerData } = require('node:worker_threads');

const mod = require(workerData.bundlePath);
const handler = mod[workerData.handlerExport || 'handler'];
if (typeof handler !== 'function') throw new Error(`${workerData.bundlePath} exports no ${workerData.handlerExport}`);
// The module has loaded (the init phase): invocations may come.
parentPort.postMessage({ ready: true });

parentPort.on('message', async ({ id, event, context }) => {
  const ctx = {
    ...context,
    getRemainingTimeInMillis: () => Math.max(0, context.deadline - Date.now()),
    callbackWaitsForEmptyEventLoop: false,
  };
  try {
    const result = await handler(event, ctx);
    parentPort.postMessage({ id, result });
  } catch (err) {
    parentPort.postMessage({
      id,
      error: { name: err?.name ?? 'Error', message: String(err?.message ?? err), stack: err?.stack },
    });
  }
});
