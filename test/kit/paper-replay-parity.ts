import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type KeelChildRun, keelChild } from './keel-child-process.ts';

/** What the parity checks read of a result file. */
export interface ParityResult {
  fills: { clientOrderId: string; side: string; price: string; quantity: string; timestamp: number }[];
  orders: { clientOrderId: string }[];
  meta: { warnings?: string[] };
}

/** A keel child run's exit code and output. */
export type ChildRun = KeelChildRun;

/**
 * Writes, in `dir`, a lockstep paper session of `strategies` on `recording` (queue fill model, no
 * metrics, recording to out/paper.jsonl.gz) and a backtest of that session's own recording with
 * the paper venue's models (no latency, positions left open), then runs the paper session.
 * @param dir - the directory both configs and their outputs go in
 * @param strategies - the configs' `instruments` and `strategies` sections, as YAML
 * @param recording - the recording the paper venue replays
 * @param startingCash - the USDT both start with
 * @returns the paper run; run the backtest with {@link replayOfPaper}
 */
export function lockstepPaperRun(
  dir: string,
  strategies: string,
  recording: string,
  startingCash: number,
): ChildRun {
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(
    join(dir, 'paper.yaml'),
    `mode: paper
${strategies}paper:
  lockstep: true
  speed: 1000000
  source: { kind: recording, path: ${recording} }
  startingCash: { USDT: ${startingCash} }
  fillModel: queue
recording: { path: out/paper.jsonl.gz }
report: { html: out/paper.html, json: out/paper.json }
logging: { level: warn }
metrics: { enabled: false }
`,
  );
  writeFileSync(
    join(dir, 'replay.yaml'),
    `mode: backtest
${strategies}backtest:
  recordings: [out/paper.jsonl.gz]
  startingCash: { USDT: ${startingCash} }
  fillModel: queue
  latency: { fixedMs: 0, jitterMs: 0 }
  closeAtEnd: false
report: { html: out/replay.html, json: out/replay.json }
`,
  );
  return keelChild(['run', 'paper.yaml'], { cwd: dir });
}

/**
 * Runs the backtest {@link lockstepPaperRun} wrote, of the paper session's own recording.
 * @param dir - the directory of both
 * @returns the backtest run
 */
export function replayOfPaper(dir: string): ChildRun {
  return keelChild(['backtest', 'replay.yaml', '--no-progress'], { cwd: dir });
}

/**
 * @param dir - the directory of both runs
 * @param name - `paper` or `replay`
 * @returns that run's result file
 */
export function parityResultOf(dir: string, name: 'paper' | 'replay'): ParityResult {
  return JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as ParityResult;
}

/**
 * A result's fills as comparable lines: a paper run tags its generated references
 * (`twap_btc-tk3x9a4f-2`), its backtest does not (`twap_btc-2`), so the tag is left out.
 * @param result - a result file
 * @returns one `ref SIDE qty @ price t=ts` line per fill
 */
export function fillLines(result: ParityResult): string[] {
  return result.fills.map(
    (f) =>
      `${f.clientOrderId.replace(/^(\w+)-[0-9a-z]{8}-([0-9a-z-]+)$/, '$1-$2')} ${f.side} ${f.quantity} @ ${f.price} t=${f.timestamp}`,
  );
}
