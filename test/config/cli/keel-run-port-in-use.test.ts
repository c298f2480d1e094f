import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const PERP = 'BINANCE_PERP_TST_USDT';
const newDir = tempDirsRemovedAfterEach('keel-port-in-use-');

describe('keel run with metrics.port taken by another process', () => {
  it('names the key and exits 2, as for another config problem', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as AddressInfo).port;
    try {
      const dir = newDir();
      const recording = await flatBarsRecordingIn(dir, 5, Date.UTC(2025, 0, 6), PERP);
      const file = join(dir, 'paper.yaml');
      writeFileSync(
        file,
        `mode: paper
instruments:
  - sym: ${PERP}
    overrides: { tickSize: 0.01, lotSize: 1 }
strategies:
  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${PERP}, qty: 1 } }
paper:
  source: { kind: recording, path: ${JSON.stringify(recording)} }
  startingCash: { USDT: 10000 }
logging: { level: silent }
metrics: { enabled: true, host: 127.0.0.1, port: ${port} }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
      );
      const run = await keelInProcess(['run', file]);
      expect(run.stderr).toContain(
        `✖ keel run: metrics.port ${port} is already in use on 127.0.0.1 (listen EADDRINUSE)`,
      );
      expect(run.code).toBe(2);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  }, 60_000);
});
