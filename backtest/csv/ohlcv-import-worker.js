// Worker thread of `keel import-csv` (see ohlcv-import-in-worker.ts): registers tsx so the
// TypeScript sources load without a build step, writes the staged recording and posts back what
// it wrote, or the error as plain data (a class does not survive the trip between threads).
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
const { writeStagedOhlcvImport } = await import(new URL('./staged-ohlcv-import.ts', import.meta.url).href);

try {
  parentPort?.postMessage({ done: await writeStagedOhlcvImport(workerData) });
} catch (error) {
  const { name, message, file, line } = error instanceof Error ? error : new Error(String(error));
  parentPort?.postMessage({ failed: { name, message, file, line } });
}
