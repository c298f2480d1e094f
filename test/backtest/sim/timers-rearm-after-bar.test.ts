import { describe, expect, it } from 'vitest';
import type { SimState } from '../../../backtest/sim/sim-state.ts';
import { rearmAfterBar } from '../../../backtest/sim/timers.ts';

/** The parts of a venue `rearmAfterBar` reads: no orders, no markets. */
function aQuietState(): SimState {
  return {
    pendingBarOpen: new Map(),
    liveOrders: new Set(),
    held: [],
    markets: new Map(),
    deadline: Number.POSITIVE_INFINITY,
  } as unknown as SimState;
}

describe('sim venue: rearmAfterBar', () => {
  it("moves a sym's pending bar open in place: one cell per sym for the whole run, never moved back", () => {
    const state = aQuietState();
    rearmAfterBar(state, 'BTC', 60_000);
    const cell = state.pendingBarOpen.get('BTC');
    expect(cell).toEqual({ open: 60_000 });
    for (let open = 120_000; open <= 600_000; open += 60_000) rearmAfterBar(state, 'BTC', open);
    expect(state.pendingBarOpen.get('BTC')).toBe(cell);
    expect(cell).toEqual({ open: 600_000 });
    rearmAfterBar(state, 'BTC', 300_000);
    expect(cell).toEqual({ open: 600_000 });
    rearmAfterBar(state, 'ETH', 60_000);
    expect(state.pendingBarOpen.get('ETH')).toEqual({ open: 60_000 });
    expect(state.pendingBarOpen.get('ETH')).not.toBe(cell);
  });
});
