import { readFileSync, writeFileSync } from 'node:fs';
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

/** A paper run's config with `extra` YAML appended, in a new directory. */
async function paperConfig(extra: string): Promise<string> {
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
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
${extra}
`,
  );
  return file;
}

/** A port another process listens on, for the test's duration. */
async function withTakenPort(use: (port: number) => Promise<void>): Promise<void> {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
  try {
    await use((taken.address() as AddressInfo).port);
  } finally {
    await new Promise((r) => taken.close(r));
  }
}

describe('keel run with a port taken by another process', () => {
  it('metrics.port: names the key and exits 2, as for another config problem', async () => {
    await withTakenPort(async (port) => {
      const file = await paperConfig(`metrics: { enabled: true, host: 127.0.0.1, port: ${port} }`);
      const run = await keelInProcess(['run', file]);
      expect(run.stderr).toContain(
        `✖ keel run: metrics.port ${port} is already in use on 127.0.0.1 (listen EADDRINUSE)`,
      );
      // Two instances of one config (or of copies of an example) on a host meet at that line.
      const lines = readFileSync(file, 'utf8').split('\n');
      const line = lines.findIndex((text) => text.startsWith('metrics:'));
      const col = (lines[line] ?? '').indexOf(`port: ${port}`) + 'port: '.length + 1;
      expect(run.stderr).toMatch(
        new RegExp(`process → at metrics\\.port \\(.*paper\\.yaml:${line + 1}:${col}\\)\n$`),
      );
      expect(run.code).toBe(2);
    });
  }, 60_000);

  it('paper.venuePort: names the key and exits 2', async () => {
    await withTakenPort(async (port) => {
      const file = await paperConfig('');
      const run = await keelInProcess(['run', file, '--set', `paper.venuePort=${port}`]);
      expect(run.stderr).toContain(
        `✖ keel run: paper.venuePort ${port} is already in use on 127.0.0.1 (listen EADDRINUSE)`,
      );
      expect(run.stderr).toContain(`→ at paper.venuePort (--set paper.venuePort=${port})\n`);
      expect(run.code).toBe(2);
    });
  }, 60_000);
});
