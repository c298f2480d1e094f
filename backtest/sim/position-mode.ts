import { rejectCommand } from './command-rejection.ts';
import { publishBalances } from './publish.ts';
import type { SimState } from './sim-state.ts';
import { everyPosition } from './spot-holdings.ts';

/**
 * Switches the portfolio between NET and BOTH position modes (Change Account PositionMode). Refused
 * with 406012 while any position, open order or algo order exists (per public venue docs).
 * @param state - the venue
 * @param ref - the command's reference
 * @param mode - the new mode
 */
export function setPositionMode(state: SimState, ref: string, mode: 'NET' | 'BOTH'): void {
  const busy =
    everyPosition(state).some((p) => !p.qty.isZero()) || state.liveOrders.size > 0 || state.algos.size > 0;
  if (busy) {
    rejectCommand(state, ref, 'setPositionMode', 'POSITION_MODE_SWITCH_BLOCKED', `cannot switch to ${mode}`);
    return;
  }
  state.positionMode = mode;
  state.positions.clear();
  state.holdings.clear();
  state.portfolioVersion++;
  publishBalances(state, []);
}
