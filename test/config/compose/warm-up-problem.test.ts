import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WarmUpTookEverythingError } from '../../../backtest/runner/index.ts';
import { warmUpTookEverythingProblem } from '../../../config/compose/warm-up-problem.ts';
import { formatConfigProblem, loadValidConfig } from '../../../config/loader/index.ts';
import { BACKTEST_YAML } from '../../kit/config-texts.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-warm-up-problem-');

describe('warmUpTookEverythingProblem', () => {
  it("locates a warm-up that takes every event at its key's YAML line", () => {
    const file = join(tempDir(), 'bt.yaml');
    writeFileSync(file, `${BACKTEST_YAML}warmUp:\n  bars: 50\n  interval: 1h\n`);
    const loaded = loadValidConfig(file);
    const error = new WarmUpTookEverythingError(50 * 3_600_000, Date.UTC(2024, 2, 6, 7), 17);
    expect(formatConfigProblem(warmUpTookEverythingProblem(loaded, error))).toBe(
      `✖ warmUp.bars makes a warm-up that takes all 17 events of the recordings (it runs to 2024-03-06T07:00:00.000Z), leaving nothing to trade on: shorten it or replay more data → at warmUp.bars (${file}:16:9)`,
    );
  });
});
