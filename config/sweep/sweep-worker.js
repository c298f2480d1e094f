// Worker thread of `keel sweep` (piscina): registers tsx so the TypeScript sources load without
// a build step, then serves runSweepTask from sweep-task.ts.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
const { runSweepTask } = await import(new URL('./sweep-task.ts', import.meta.url).href);

/**
 * Runs one sweep combination. When the message carries a `started` port, says on it that the
 * backtest starts (so `--timeout` counts from here, not from when the combination was queued).
 * @param {{ task: import('./sweep-task.ts').SweepTask, started?: import('node:worker_threads').MessagePort }} message - the config and the combination
 * @returns {Promise<import('./sweep-task.ts').SweepRow>} the row
 */
export default function sweepWorker({ task, started }) {
  started?.postMessage('started');
  return runSweepTask(task);
}
