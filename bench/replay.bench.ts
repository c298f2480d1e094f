import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEventBatches } from '../backtest/recording/index.ts';
import { EXAMPLE_SESSION_OPTIONS, writeSyntheticSession } from '../backtest/synthetic/index.ts';
import { decodeSessionRecord } from '../config/session-decoder.ts';
import { bareJsonLoop } from './kit/bare-json-loop.ts';
import { bestOf } from './kit/cpu-timing.ts';

// Replay throughput of a 1M-message synthetic session: the recording reader decoding into model
// events (the same path as `npm start`) against a bare loop that only reads, splits lines by hand
// and JSON.parses them. Peak RSS is measured in a fresh process that only replays.

const MESSAGES = 1_000_000;
const SEED = 7;
const ROUNDS = 3;
const MIB = 2 ** 20;
const path = join(tmpdir(), `keel-replay-bench-v1-seed${SEED}-${MESSAGES}.jsonl`);
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

async function replay(onBatch: () => void): Promise<number> {
  let events = 0;
  let checksum = 0;
  for await (const batch of readEventBatches(path, decodeSessionRecord)) {
    events += batch.length;
    for (const e of batch) checksum += e.ts;
    onBatch();
  }
  if (checksum === 0) throw new Error('replay saw no events');
  return events;
}

const bareLoop = (onChunk?: () => void): Promise<number> => bareJsonLoop(path, onChunk);

/**
 * Child mode: replay the file twice (so 2M messages, as if the file were twice as long) and print,
 * as JSON, RSS before reading, at peak, and after every quarter of each pass.
 */
async function probeRss(what: 'replay' | 'bare'): Promise<void> {
  const before = process.memoryUsage.rss();
  let peak = before;
  let batches = 0;
  const checkpoints: number[] = [];
  const every = Math.ceil(statSync(path).size / (1 << 16) / 4);
  const sample = (): void => {
    const rss = process.memoryUsage.rss();
    if (rss > peak) peak = rss;
    if (++batches % every === 0) checkpoints.push(Math.round(rss / MIB));
  };
  for (let pass = 0; pass < 2; pass++) {
    batches = 0;
    await (what === 'replay' ? replay(sample) : bareLoop(sample));
  }
  process.stdout.write(
    JSON.stringify({ before: Math.round(before / MIB), peak: Math.round(peak / MIB), checkpoints }),
  );
}

function rssLine(what: 'replay' | 'bare', label: string, nodeFlags: readonly string[]): string {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', self, `--rss-probe=${what}`], {
    encoding: 'utf8',
  });
  const name = `${what === 'replay' ? 'replay' : 'bare loop'}, ${label}`.padEnd(38);
  if (run.status !== 0) return `  ${name} probe failed (${run.stderr.trim().split('\n')[0]})`;
  const r = JSON.parse(run.stdout) as { before: number; peak: number; checkpoints: number[] };
  return `  ${name} peak ${r.peak} MiB (${r.before} before reading); every 250k: ${r.checkpoints.join(' ')}`;
}

if (!existsSync(path)) {
  const started = performance.now();
  const partial = `${path}.partial`;
  await writeSyntheticSession(partial, {
    seed: SEED,
    startTime: EXAMPLE_SESSION_OPTIONS.startTime,
    maxMessages: MESSAGES,
  });
  renameSync(partial, path);
  console.log(`generated ${path} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const probe = process.argv.find((a) => a.startsWith('--rss-probe='));
if (probe !== undefined) {
  await probeRss(probe.endsWith('bare') ? 'bare' : 'replay');
} else {
  const mb = statSync(path).size / 1e6;
  const bare = await bestOf(ROUNDS, bareLoop);
  const read = await bestOf(ROUNDS, () => replay(() => {}));
  console.log(`session      ${path} (${mb.toFixed(1)} MB, ${fmt(bare.value)} lines incl. header, SYNTHETIC)`);
  console.log(
    `             rates on CPU time (the machine is shared), best of ${ROUNDS}; wall-clock rate in brackets`,
  );
  console.log(
    `bare loop    ${fmt(bare.value / bare.cpu)} lines/s   ${(mb / bare.cpu).toFixed(1)} MB/s  [${fmt(bare.value / bare.wall)} lines/s]  read + split + JSON.parse`,
  );
  console.log(
    `replay       ${fmt(read.value / read.cpu)} events/s  ${(mb / read.cpu).toFixed(1)} MB/s  [${fmt(read.value / read.wall)} events/s]  reader + venue decoders -> model events`,
  );
  const ratio = (read.value / read.cpu / (bare.value / bare.cpu)) * 100;
  console.log(`ratio        ${ratio.toFixed(1)} % of the bare loop (target >= 70 %)`);
  console.log(
    'peak RSS     fresh process per line, 2 passes over the file (2M messages), MiB; target flat, < 150',
  );
  console.log(rssLine('replay', 'default node flags', []));
  console.log(rssLine('bare', 'default node flags', []));
  console.log(rssLine('replay', '--max-semi-space-size=8', ['--max-semi-space-size=8']));
}
