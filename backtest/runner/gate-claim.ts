import type { IntentGate } from '../../core/kernel/index.ts';

/** Where a gate given to `runBacktest` stands: serving a run now, or spent by one. */
type GateUse = 'serving' | 'served';

/** The gates runs were given: a gate holds a run's state, so each serves one run. */
const uses = new WeakMap<IntentGate, GateUse>();

/**
 * Thrown by `runBacktest` given a risk gate that already served a run or is serving one: a gate
 * keeps a run's kill-switch trip and rate buckets (the next run's virtual time restarts, so they
 * never refill), and runs at once would trip and throttle each other. Build a gate per run.
 */
export class RiskGateReusedError extends Error {
  /** @param use - whether the gate is serving another run now or already served one */
  constructor(readonly use: GateUse) {
    super(
      `backtest: the risk gate given ${use === 'serving' ? 'is serving another run now (runs at once would trip and throttle each other)' : 'already served a run (its kill-switch trip and rate buckets would carry over)'}; give each run a gate of its own, e.g. gate: new RiskGate(limits) where each run's options are made`,
    );
    this.name = 'RiskGateReusedError';
  }
}

/** A run's claim on its gate: the gate is spent only when the run started its strategies. */
export interface GateClaim {
  /** Marks that the run started its strategies: from then on the gate holds the run's state. */
  readonly started: () => void;
  /**
   * Ends the claim once the run ended (finished or failed): the gate is spent when the run
   * started its strategies, and free again when it failed before (a recording that could not be
   * opened, a window without events), so the corrected retry may use it.
   */
  readonly end: () => void;
}

/**
 * Claims a run's gate: refused when another run is serving it or served it.
 * @param gate - the run's gate
 * @returns the claim: mark when the run started, end it when the run ended
 * @throws RiskGateReusedError when the gate is serving or served a run
 */
export function claimGate(gate: IntentGate): GateClaim {
  const use = uses.get(gate);
  if (use !== undefined) throw new RiskGateReusedError(use);
  uses.set(gate, 'serving');
  let started = false;
  return {
    started: () => {
      started = true;
    },
    end: () => {
      if (started) uses.set(gate, 'served');
      else uses.delete(gate);
    },
  };
}
