import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { reportOutputFlags } from '../../kit/keel-child-process.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const PLUGIN = resolve('test/config/fixtures/buy-once-plugin.ts');
const SESSION = resolve('backtest/sessions/example-synthetic.jsonl.gz');
const SYM = 'BINANCE_PERP_BTC_USDT';
const dir = tempDirsRemovedAfterAll('keel-denial-summary-')();
const config = join(dir, 'denied.yaml');
writeFileSync(
  config,
  `mode: backtest
name: denied
instruments: [${SYM}]
strategies:
  - id: b
    use: ${PLUGIN}
    params: { sym: ${SYM}, qty: 0.5 }
    risk: { maxPositionQty: 0.1 }
backtest:
  recordings: [${SESSION}]
  startingCash: { USDT: 100000 }
  eventCache: false
`,
);

describe('denied intents in the backtest summary', () => {
  it('are counted by check, with the denials CSV, and the first reason quoted under them', async () => {
    const run = await keelInProcess([
      'backtest',
      config,
      '--no-progress',
      ...reportOutputFlags(dir, 'denied'),
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stdout).toMatch(
      /\n {2}1 intent denied \(risk maxPosition 1\): .*denied-result\.denials\.csv\n {4}the first: placeOrder b-\S+: .*0\.5.*\n/,
    );
  }, 60_000);
});
