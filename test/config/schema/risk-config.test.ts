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
});
