import type { Intent } from '../../core/model/index.ts';
import { cancelAlgoOrder, cancelAllAlgoOrders, placeAlgoOrder, replaceAlgoOrder } from './algo-orders.ts';
import { closePosition, closePositions } from './close-positions.ts';
import { rejectCommand } from './command-rejection.ts';
import { borrow, repay } from './loans.ts';
import { cancelOrder, cancelOrders, modifyOrder } from './order-amend.ts';
import { placeOrder } from './order-entry.ts';
import { badFieldValue } from './order-parameters.ts';
import { setPositionMode } from './position-mode.ts';
import type { SimState } from './sim-state.ts';

/**
 * Carries out a command that has arrived at the venue: hands it to the handler of its kind. A
 * command with a field outside the venue's values is refused (400001) first; a new order is
 * refused as a REJECTED order, as order entry refuses its other parameters.
 * @param state - the venue
 * @param intent - the command's intent
 * @param endOfRun - the command is Keel's end-of-run close: the orders it places trade whatever
 *   the hours and are named after it
 */
export function dispatch(state: SimState, intent: Intent, endOfRun = false): void {
  const bad = intent.kind === 'placeOrder' ? undefined : badFieldValue(intent);
  if (bad !== undefined) {
    rejectCommand(state, intent.ref, intent.kind, 'BAD_PARAMETERS', bad);
    return;
  }
  switch (intent.kind) {
    case 'placeOrder':
      placeOrder(state, intent);
      return;
    case 'modifyOrder':
      modifyOrder(state, intent);
      return;
    case 'cancelOrder':
      cancelOrder(state, intent);
      return;
    case 'cancelOrders':
      cancelOrders(state, intent);
      return;
    case 'closePosition':
      closePosition(state, intent, endOfRun);
      return;
    case 'closePositions':
      closePositions(state, intent, endOfRun);
      return;
    case 'placeAlgoOrder':
      placeAlgoOrder(state, intent);
      return;
    case 'replaceAlgoOrder':
      replaceAlgoOrder(state, intent);
      return;
    case 'cancelAlgoOrder':
      cancelAlgoOrder(state, intent);
      return;
    case 'cancelAllAlgoOrders':
      cancelAllAlgoOrders(state, intent);
      return;
    case 'borrow':
      borrow(state, intent);
      return;
    case 'repay':
      repay(state, intent);
      return;
    case 'setPositionMode':
      setPositionMode(state, intent.ref, intent.positionMode);
      return;
  }
}
