import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { flatBarsRecordingIn } from '../../../kit/bar-recordings.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const SIGNAL_ON_START = resolve('test/config/fixtures/signal-on-start-plugin.ts');
const PERP = 'BINANCE_PERP_TST_USDT';
const newDir = tempDirsRemovedAfterEach('keel-backtest-signals-');

describe('keel backtest stopped by a signal', () => {
  // Its terminal closing killed it outright: no word, its run lock, spill files and the event
  // cache it was building left behind, its result files possibly half moved in place.
  it('on SIGHUP says so, writes no result, removes its temporary files and exits 129', async () => {
    const dir = newDir();
    const recording = await flatBarsRecordingIn(dir, 50, Date.UTC(2025, 0, 6), PERP);
    const file = join(dir, 'bt.yaml');
    writeFileSync(
      file,
      `mode: backtest
instruments:
  - sym: ${PERP}
    overrides: { tickSize: 0.01, lotSize: 1 }
strategies:
  - id: s
    use: ${JSON.stringify(SIGNAL_ON_START)}
    params: { sym: ${PERP}, qty: 1, price: 90, signal: SIGHUP }
backtest:
  recordings: [${JSON.stringify(recording)}]
  startingCash: { USDT: 10000 }
report: { json: ${JSON.stringify(join(dir, 'out/result.json'))}, html: ${JSON.stringify(join(dir, 'out/report.html'))} }
`,
    );
    const before = process.listenerCount('SIGHUP');
    const run = await keelInProcess(['backtest', file, '--no-progress']);
    expect(run.stderr).toContain('SIGHUP: stopping after the current batch; SIGHUP again to quit now\n');
    expect(run.stderr).toContain('stopped by SIGHUP; no result written\n');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(EXIT.HANGUP);
    expect(existsSync(join(dir, 'out/result.json'))).toBe(false);
    expect(readdirSync(join(dir, 'out')), 'the run lock is gone').toEqual([]);
    expect(readdirSync(dir).filter((name) => name.includes('.partial'))).toEqual([]);
    expect(process.listenerCount('SIGHUP')).toBe(before);
  });
});
