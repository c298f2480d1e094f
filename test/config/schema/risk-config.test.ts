import { describe, expect, it } from 'vitest';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';
import { riskGateConfigOf } from '../../../config/schema/index.ts';
import { D } from '../../../core/model/index.ts';
import { riskGateConfigSchema } from '../../../core/risk/index.ts';
import { BACKTEST_YAML } from '../../kit/config-texts.ts';

describe('risk settings of a config', () => {
  it("become the risk gate's configuration: global limits, per-strategy limits by id, kill switch", () => {
    const text = `${BACKTEST_YAML}risk:\n  maxOpenOrders: 5\n  killSwitch: { dailyLossLimit: 100 }\n`;
    const result = parseConfigText(text, { file: 'bt.yaml', env: {} });
    if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
    const gate = riskGateConfigOf(result.config);
    expect(gate.limits).toEqual({ maxOpenOrders: 5 });
    expect(gate.strategies.sma?.maxPositionQty?.equals(D('0.5'))).toBe(true);
    expect(gate.killSwitch.dailyLossLimit?.equals(D(100))).toBe(true);
    expect(gate.killSwitch.tripTo).toBe('HALTED');
    expect(Object.keys(riskGateConfigSchema.shape).sort()).toEqual(Object.keys(gate).sort());
  });

  it('refuses a priceBand of 1 or more at its line: a band is a fraction, and 5 is 500 %, not 5 %', () => {
    for (const band of ['1', '5']) {
      const result = parseConfigText(`${BACKTEST_YAML}risk:\n  priceBand: ${band}\n`, {
        file: 'bt.yaml',
        env: {},
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problems.map(formatConfigProblem)).toEqual([
        expect.stringMatching(
          /^✖ risk\.priceBand must be less than 1: it is a fraction \(0\.05 = 5 %\), and a band of 1 or more lets every BUY price through → at risk\.priceBand \(bt\.yaml:\d+:\d+\)$/,
        ),
      ]);
    }
    expect(
      parseConfigText(`${BACKTEST_YAML}risk:\n  priceBand: 0.99\n`, { file: 'bt.yaml', env: {} }).ok,
    ).toBe(true);
  });
});
