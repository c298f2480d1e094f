// Worker thread of `keel sweep` (piscina): registers tsx so the TypeScript sources load without
// a build step, then serves runSweepTask from sweep-task.ts.
import { fileURLToPath } from 'node:url';
import { receiveMessageOnPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
const { runSweepTask } = await import(new URL('./sweep-task.ts', import.meta.url).href);

/**
 * Runs one sweep combination. When the message carries a `started` port, says on it that the
 * backtest starts (so `--timeout` counts from here, not from when the combination was queued).
 * A message on its `cancel` port (the sweep stopped; already there when it was queued) cancels
 * the backtest, which stops at its next batch and removes its temporary files.
 * @param {{ task: import('./sweep-task.ts').SweepTask, started?: import('node:worker_threads').MessagePort, cancel?: import('node:worker_threads').MessagePort }} message - the config and the combination
 * @returns {Promise<import('./sweep-task.ts').SweepRow>} the row
 */
export default function sweepWorker({ task, started, cancel }) {
  started?.postMessage('started');
  const stop = new AbortController();
  if (cancel !== undefined) {
    if (receiveMessageOnPort(cancel) === undefined) cancel.once('message', () => stop.abort());
    else stop.abort();
  }
  return runSweepTask(task, stop.signal).finally(() => cancel?.close());
}
