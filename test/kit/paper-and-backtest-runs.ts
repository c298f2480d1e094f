import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keelInProcess } from './keel-in-process.ts';

/**
 * Runs one config's instruments and strategies twice with `keel` in this process, in `dir` as its
 * working directory: as a lockstep paper session replaying `recording` as fast as it goes (orders
 * cancelled at the stop), then as a backtest of that recording with no end-of-run close, both
 * with no latency (or `latency`) and starting with 100 000 USDT, and reads both results (`out/paper.json`,
 * `out/backtest.json`). The tests using it compare what the two runs decide, not how a process
 * starts or ends: a child process per run cost each a Node and tsx start and the whole import.
 * @param dir - a temporary folder (it gets a package.json, the two configs and `out/`)
 * @param strategies - the YAML of `instruments` and `strategies`, ending with a newline
 * @param recording - the recording both replay
 * @param latency - the YAML flow map of a `latency` both runs apply (e.g. `{ fixedMs: 2, jitterMs: 0 }`);
 *   absent = none
 * @returns the two results, parsed
 * @throws Error with the run's stderr when either run does not exit 0
 */
export async function paperAndBacktestResults<R>(
  dir: string,
  strategies: string,
  recording: string,
  latency?: string,
): Promise<{ readonly paper: R; readonly backtest: R }> {
  const paperLatency = latency === undefined ? '' : `  latency: ${latency}\n`;
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(
    join(dir, 'paper.yaml'),
    `mode: paper\n${strategies}paper:\n  lockstep: true\n  speed: 1000000\n${paperLatency}  source: { kind: recording, path: ${recording} }\n  startingCash: { USDT: 100000 }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\nshutdown: { cancelAllOrders: true }\n`,
  );
  writeFileSync(
    join(dir, 'backtest.yaml'),
    `mode: backtest\n${strategies}backtest:\n  recordings: [${recording}]\n  startingCash: { USDT: 100000 }\n  latency: ${latency ?? '{ fixedMs: 0, jitterMs: 0 }'}\n  closeAtEnd: false\nreport: { html: out/backtest.html, json: out/backtest.json }\n`,
  );
  for (const args of [
    ['run', 'paper.yaml'],
    ['backtest', 'backtest.yaml', '--no-progress'],
  ]) {
    const run = await keelInProcess(args, { cwd: dir });
    if (run.code !== 0) throw new Error(`keel ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  }
  const read = (name: string) => JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as R;
  return { paper: read('paper'), backtest: read('backtest') };
}
