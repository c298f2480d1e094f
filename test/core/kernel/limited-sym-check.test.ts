import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, Kernel, virtualScheduler } from '../../../core/kernel/index.ts';
import { RiskGate, type RiskGateConfigInput } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { BTC, ETH } from '../../kit/kernel-events.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

const idle = defineStrategy({ name: 'idle', params: z.object({}) });

/** A kernel trading BTC and ETH, its gate built in code from `config`. */
function kernelGated(config: RiskGateConfigInput, configure?: (gate: RiskGate) => void): Kernel {
  const gate = new RiskGate(config);
  configure?.(gate);
  return new Kernel({
    instruments: [anInstrument(BTC), anInstrument(ETH)],
    market: [],
    execution: aRecordingPort(),
    gate,
    scheduler: virtualScheduler(0),
    strategies: [{ id: 'mm', strategy: idle }],
  });
}

describe('a risk gate built in code whose per-sym limit names no instrument of the run', () => {
  it('refuses the kernel, naming the sym, whose limit names it and the instruments', () => {
    const build = () => kernelGated({ limits: { maxPositionQtyBySym: { BTCUSDT: '0.1' } } });
    expect(build).toThrow(TypeError);
    expect(build).toThrow(
      `kernel: the risk gate's maxPositionQtyBySym names BTCUSDT (portfolio), not among the run's instruments (${BTC}, ${ETH}): its limit would never apply`,
    );
  });

  it("names a strategy's misspelt sym, from its config section or configured later", () => {
    expect(() =>
      kernelGated({ strategies: { mm: { maxPositionQtyBySym: { [BTC]: '1', ETH: '2' } } } }),
    ).toThrow('names ETH (mm), not among');
    expect(() =>
      kernelGated({}, (gate) => gate.configureStrategy('mm', { maxPositionQtyBySym: { SOL: '3' } })),
    ).toThrow('names SOL (mm), not among');
  });

  it('builds the kernel when every named sym is an instrument', () => {
    const gate = new RiskGate({
      limits: { maxPositionQtyBySym: { [BTC]: '0.1' } },
      strategies: { mm: { maxPositionQtyBySym: { [ETH]: '2' } } },
    });
    expect(gate.limitedSyms()).toEqual([
      { owner: 'portfolio', sym: BTC },
      { owner: 'mm', sym: ETH },
    ]);
    expect(() =>
      kernelGated({ limits: { maxPositionQtyBySym: { [BTC]: '0.1', [ETH]: '1' } } }),
    ).not.toThrow();
  });
});
