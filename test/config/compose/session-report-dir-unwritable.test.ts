import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const newDir = tempDirsRemovedAfterEach('keel-report-dir-');
const ETH = 'OKX_SPOT_ETH_USDT';

describe('a paper session whose report directory cannot be made', () => {
  it('still ends with its outcome and summary (outputsNotWritten), not a thrown error', async () => {
    const dir = newDir();
    const file = join(dir, 'paper.yaml');
    // `out` is a file where the report directory goes: mkdir fails ENOTDIR/EEXIST, as it does ENOSPC on a full disk.
    writeFileSync(join(dir, 'out'), 'not a directory');
    writeFileSync(
      file,
      `mode: paper
instruments: [${ETH}]
strategies:
  - { id: buy, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${ETH}, qty: 0.01 } }
paper:
  lockstep: true
  durationSec: 2
  source: { kind: synthetic, seed: 1 }
  startingCash: { USDT: 100000 }
logging: { level: silent }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'out', 'sub', 'report.html'))} }
`,
    );
    const loaded = loadConfig(file);
    if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
    const outcome = await runConfiguredSession(loaded, { handleSignals: false });
    if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
    expect(outcome.fills).toHaveLength(1);
    expect(outcome.outputsNotWritten).toMatch(/report\.html/);
    outcome.result.dispose?.();
  }, 30_000);
});
