// A worker thread that builds a recording's event cache through the real cachedMarketEvents, as a
// sweep worker does: it reads `batches` batches of quotes, pausing after batch `pauseAfter` until
// the test says go (so two threads' builds overlap as the test arranges), then says done.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { cachedMarketEvents } = await import(
  new URL('../../backtest/runner/event-cache.ts', import.meta.url).href
);
const { RecordingDamage } = await import(new URL('../../backtest/recording/index.ts', import.meta.url).href);
const { batches, perBatch, pauseAfter, recording } = workerData;

async function* fresh() {
  for (let b = 0; b < batches; b++) {
    const batch = [];
    for (let i = 0; i < perBatch; i++) {
      const n = b * perBatch + i;
      batch.push({
        kind: 'quote',
        sym: 'BTC',
        ts: 1000 + n,
        recvTs: 1000 + n,
        bid: 100 + n,
        bidQty: 1,
        ask: 101 + n,
        askQty: 1,
      });
    }
    yield batch;
  }
}

let b = 0;
for await (const _batch of cachedMarketEvents(recording, 'dec', fresh, new RecordingDamage())) {
  if (b++ === pauseAfter) {
    parentPort.postMessage('paused');
    await new Promise((resolve) => parentPort.once('message', resolve));
  }
}
parentPort.postMessage('done');
