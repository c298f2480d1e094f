import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const HEARD = resolve('test/config/fixtures/heard-rejections-plugin.ts');
const newDir = tempDirsRemovedAfterEach('keel-refused-session-');

describe('a paper session whose order the paper venue refuses synchronously', () => {
  it('tells the strategy exactly once, through one onOrder REJECTED from the live adapter, carrying the venue code', async () => {
    const dir = newDir();
    const heardFile = join(dir, 'heard.txt');
    const file = join(dir, 'paper.yaml');
    // 100 000 shares of a ~$200 stock on $100 000 of cash: the venue refuses it with 401023.
    writeFileSync(
      file,
      `mode: paper
instruments: [US_EQUITY_AAPL]
strategies:
  - { id: buy, use: ${JSON.stringify(HEARD)}, params: { sym: US_EQUITY_AAPL, qty: 100000, heardFile: ${JSON.stringify(heardFile)} } }
paper:
  lockstep: true
  durationSec: 2
  source: { kind: synthetic, seed: 1 }
  startingCash: { USD: 100000 }
logging: { level: warn }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
    );
    const loaded = loadConfig(file);
    if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
    const outcome = await runConfiguredSession(loaded, { handleSignals: false });
    if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
    const heard = existsSync(heardFile) ? readFileSync(heardFile, 'utf8').trim().split('\n') : [];
    expect(heard).toHaveLength(1);
    // The venue handed out no order id (the refusal was the reply's error envelope), so the
    // REJECTED update the strategy hears is the live adapter's, carrying the venue's code.
    expect(heard[0]).toMatch(/^onOrder REJECTED \S+ orderId= 401023 insufficient margin/);
    expect([...outcome.result.orders].map((o) => o.orderState)).toEqual(['REJECTED']);
  }, 30_000);
});
