// Worker thread of `keel sweep` (piscina): registers tsx so the TypeScript sources load without
// a build step, then serves runSweepTask from sweep-task.ts.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
const { runSweepTask } = await import(new URL('./sweep-task.ts', import.meta.url).href);

/**
 * Runs one sweep combination.
 * @param {import('./sweep-task.ts').SweepTask} task - the config and the combination
 * @returns {Promise<import('./sweep-task.ts').SweepRow>} the row
 */
export default function sweepWorker(task) {
  return runSweepTask(task);
}
