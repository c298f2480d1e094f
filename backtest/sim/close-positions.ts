import type { ClosePositionIntent, ClosePositionsIntent, PositionSide } from '../../core/model/index.ts';
import { ZERO } from '../../core/model/index.ts';
import { cancelAlgo } from './algo-orders.ts';
import { rejectCommand } from './command-rejection.ts';
import { finishOrder } from './fills.ts';
import { freeOrderRef } from './generated-refs.ts';
import { refusalDetail } from './margin-check.ts';
import { workOrder } from './matching.ts';
import { createOrder, isLive, marketCloseOf } from './order-factory.ts';
import { publishOrder } from './publish.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimPosition } from './sim-position.ts';
import { nextId, type SimAlgo, type SimState } from './sim-state.ts';
import { closeRefusal } from './spot-balance-check.ts';
import { everyPosition } from './spot-holdings.ts';

/** The spec's limit on symList of DELETE /api/v1/trading/positions. */
export const MAX_CLOSE_SYMS = 20;

/**
 * The open reduce-only orders on the syms, in BOTH mode only those of the side a close of one side
 * closes (see {@link closeReaches}), by the same rule as the algo orders.
 */
function reduceOnlyOrdersOn(
  state: SimState,
  syms: ReadonlySet<string>,
  positionSide?: PositionSide,
): SimOrder[] {
  return [...state.liveOrders].filter(
    (o) =>
      o.reduceOnly &&
      isLive(o) &&
      syms.has(o.sym) &&
      !o.liquidation &&
      closeReaches(state, positionSide, o.positionSide),
  );
}

/**
 * The open reduce-only algo orders on the syms (tp / sl attachments and reduce-only triggers), in
 * BOTH mode only those of the side a close of one side closes: the other side's stay with it, as
 * its reduce-only orders do.
 */
function reduceOnlyAlgosOn(
  state: SimState,
  syms: ReadonlySet<string>,
  positionSide?: PositionSide,
): SimAlgo[] {
  return [...state.algos.values()].filter(
    (a) => a.reduceOnly && syms.has(a.sym) && closeReaches(state, positionSide, a.positionSide),
  );
}

/**
 * Whether a close of a position side reaches a leg of a side: every leg when it names none (a
 * closePositions) or the mode is NET (one position per sym), else only the legs of that side (BOTH
 * mode, where a closePosition names LONG or SHORT).
 * The spec's "Open reduceOnly orders for the symbol are cancelled automatically first" does not
 * say what a one-leg close of two-way (BOTH) mode does to the other leg's: Keel's reading
 * is that it cancels (and counts against 401129) only the closed leg's reduce-only orders and
 * algo orders, as a reduce-only order of one leg can never reduce the other.
 */
function closeReaches(state: SimState, closed: PositionSide | undefined, side: PositionSide): boolean {
  return closed === undefined || state.positionMode === 'NET' || side === closed;
}

/**
 * The reduce-only orders a close cancels first (the spec: "Open reduceOnly orders for the symbol
 * are cancelled automatically first"): the open ones and the reduce-only algo orders, among them
 * the tp / sl attached to the positions it closes, which would otherwise stay armed against the
 * next position on the sym.
 */
interface ReduceOnlyOpen {
  readonly orders: readonly SimOrder[];
  readonly algos: readonly SimAlgo[];
}

function reduceOnlyOpenOn(
  state: SimState,
  syms: ReadonlySet<string>,
  positionSide?: PositionSide,
): ReduceOnlyOpen {
  return {
    orders: reduceOnlyOrdersOn(state, syms, positionSide),
    algos: reduceOnlyAlgosOn(state, syms, positionSide),
  };
}

function openPositionsOn(state: SimState, sym: string, positionSide?: PositionSide): SimPosition[] {
  return everyPosition(state).filter(
    (p) => p.sym === sym && !p.qty.isZero() && closeReaches(state, positionSide, p.positionSide),
  );
}

/**
 * Cancels the reduce-only orders and algo orders on the syms (the spec: "cancelled automatically
 * first"), then sends one reduce-only market order per open position. The close request carries no
 * reference (the spec's DELETE /api/v1/trading/position(s)), so the venue names each close order
 * itself, `SIM-C-<n>` (n: the number of its orderId `SIM-O-<n>`), as a venue does: a strategy's
 * close reaches the kernel as it does in paper and live, where the kernel tells the order as the
 * close's by its leg (`InFlightCloses`). Keel's end-of-run close, which is no venue request, names
 * its orders after its command's ref (`-1`, `-2`... when it closes more than one position; a venue
 * id `SIM-C-<n>` when that reference is over 40 characters or an order holds it already), which
 * the report tells as Keel's own by.
 */
function closeAll(
  state: SimState,
  ref: string,
  reduceOnly: ReduceOnlyOpen,
  positions: readonly SimPosition[],
  endOfRun: boolean,
): void {
  for (const order of reduceOnly.orders)
    finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'CLOSE_POSITION');
  for (const algo of reduceOnly.algos) cancelAlgo(state, algo);
  positions.forEach((position, index) => {
    const clientOrderId = endOfRun
      ? freeOrderRef(state, positions.length === 1 ? ref : `${ref}-${index + 1}`, () => nextId(state, 'C'))
      : venueCloseRef(state);
    if (!endOfRun) state.closeCommandRefs.set(clientOrderId, ref);
    const order = createOrder(state, {
      ...marketCloseOf(position, clientOrderId),
      ignoresTradingHours: endOfRun,
    });
    publishOrder(state, order, 'PLACE');
    workOrder(state, order);
  });
}

/**
 * The name the venue gives a close order it is about to create: `SIM-C-<n>`, n the number its
 * orderId (`SIM-O-<n>`) takes, so no id is spent on it; suffixed `-2`, `-3`... in the unlikely case
 * a user's order holds that reference.
 */
function venueCloseRef(state: SimState): string {
  const name = `SIM-C-${state.nextId}`;
  return freeOrderRef(state, name, () => name);
}

/**
 * Refuses (401129) a close while the reduce-only open orders on the syms, algo orders counted,
 * exceed the limit.
 * @param state - the venue
 * @param intent - the close command
 * @param reduceOnly - the reduce-only open orders and algo orders on the syms it closes
 * @param where - the syms as the refusal names them
 * @returns true when the command was refused
 */
function refusedForReduceOnly(
  state: SimState,
  intent: ClosePositionIntent | ClosePositionsIntent,
  reduceOnly: ReduceOnlyOpen,
  where: string,
): boolean {
  const limit = state.opts.maxReduceOnlyOrdersOnClose;
  if (reduceOnly.orders.length + reduceOnly.algos.length <= limit) return false;
  rejectCommand(
    state,
    intent.ref,
    intent.kind,
    'CLOSE_POSITION_REJECTED',
    `more than ${limit} reduce-only open orders ${where}`,
  );
  return true;
}

/**
 * Refuses (401023) a close whose market closes the balances cannot pay for: a spot holding counts
 * its sym's trades, while the coin it would sell is one balance shared with the other syms trading
 * the coin, the other leg in BOTH mode and the open orders, so the holding can exceed what the
 * balance leaves for it (bought 1 ETH on one exchange and sold it on another: the first holding is
 * 1, the ETH balance 0). Its closes are checked as spot orders are (`closeRefusal`), and the whole
 * command is refused before anything is cancelled or sent, as for 401129. Keel's choice, over
 * closing only what the balance covers: the spec names no code for it, a close selling less than
 * the position without saying so would leave the strategy believing it is flat, and a refusal
 * with the figures tells it, as a spot order the balance cannot pay for is told (reduce-only too).
 * @param state - the venue
 * @param intent - the close command
 * @param reduceOnly - the reduce-only orders and algo orders it would cancel first
 * @param positions - the positions it would close
 * @returns true when the command was refused
 */
function refusedForBalance(
  state: SimState,
  intent: ClosePositionIntent | ClosePositionsIntent,
  reduceOnly: ReduceOnlyOpen,
  positions: readonly SimPosition[],
): boolean {
  const closes = positions.map((position) => ({ ...marketCloseOf(position, intent.ref), filled: ZERO }));
  const refused = closeRefusal(state, closes, new Set(reduceOnly.orders));
  if (refused === undefined) return false;
  rejectCommand(
    state,
    intent.ref,
    intent.kind,
    'INSUFFICIENT_MARGIN',
    `closing ${refused.sym} ${refusalDetail(refused.refusal)}`,
  );
  return true;
}

/**
 * Closes one position with a market close (DELETE /api/v1/trading/position: the spec's "Close one
 * position"). In BOTH mode a sym holds two positions, told apart by positionSide, so a close
 * naming NONE names none of them: it is refused with 400001, as an order or algo order without
 * LONG or SHORT is in BOTH mode (the public docs require it there); closePositions closes every
 * leg of its syms. In NET mode a positionSide other than NONE is refused with 400001, as an order
 * naming one is. Refused with 401023 when the balances cannot pay for a spot holding's close (see
 * refusedForBalance).
 * @param state - the venue
 * @param intent - the command
 * @param endOfRun - the command is Keel's end-of-run close: its orders trade whatever the hours and
 *   are named after it (see closeAll)
 */
export function closePosition(state: SimState, intent: ClosePositionIntent, endOfRun = false): void {
  if (!state.opts.instruments.has(intent.sym)) {
    rejectCommand(state, intent.ref, intent.kind, 'BAD_SYMBOL', intent.sym);
    return;
  }
  if (state.positionMode === 'NET' && intent.positionSide !== undefined && intent.positionSide !== 'NONE') {
    rejectCommand(state, intent.ref, intent.kind, 'BAD_PARAMETERS', 'positionSide must be NONE in NET mode');
    return;
  }
  if (state.positionMode === 'BOTH' && (intent.positionSide ?? 'NONE') === 'NONE') {
    rejectCommand(
      state,
      intent.ref,
      intent.kind,
      'BAD_PARAMETERS',
      'positionSide LONG or SHORT is required in BOTH mode',
    );
    return;
  }
  const reduceOnly = reduceOnlyOpenOn(state, new Set([intent.sym]), intent.positionSide);
  if (refusedForReduceOnly(state, intent, reduceOnly, `on ${intent.sym}`)) return;
  const positions = openPositionsOn(state, intent.sym, intent.positionSide);
  if (positions.length === 0) {
    rejectCommand(state, intent.ref, intent.kind, 'POSITION_QTY_ZERO', `no open position on ${intent.sym}`);
    return;
  }
  if (refusedForBalance(state, intent, reduceOnly, positions)) return;
  closeAll(state, intent.ref, reduceOnly, positions, endOfRun);
}

/**
 * Closes the positions of up to 20 syms (DELETE /api/v1/trading/positions). Rejected with 401129
 * when symList exceeds 20 or the reduce-only open orders across the syms exceed the limit, with
 * 401023 when the balances cannot pay for its spot closes together (see refusedForBalance).
 * @param state - the venue
 * @param intent - the command
 * @param endOfRun - the command is Keel's end-of-run close: its orders trade whatever the hours and
 *   are named after it (see closeAll)
 */
export function closePositions(state: SimState, intent: ClosePositionsIntent, endOfRun = false): void {
  // The spec counts the list's entries ("symList symbol count exceeds 20"), a sym listed twice too.
  if (intent.symList.length > MAX_CLOSE_SYMS) {
    rejectCommand(
      state,
      intent.ref,
      intent.kind,
      'CLOSE_POSITION_REJECTED',
      `symList has ${intent.symList.length} syms, at most ${MAX_CLOSE_SYMS}`,
    );
    return;
  }
  const syms = new Set(intent.symList);
  const unknown = [...syms].find((sym) => !state.opts.instruments.has(sym));
  if (unknown !== undefined) {
    rejectCommand(state, intent.ref, intent.kind, 'BAD_SYMBOL', unknown);
    return;
  }
  const reduceOnly = reduceOnlyOpenOn(state, syms);
  if (refusedForReduceOnly(state, intent, reduceOnly, 'across the syms')) return;
  const positions = [...syms].flatMap((sym) => openPositionsOn(state, sym));
  if (positions.length === 0) {
    rejectCommand(state, intent.ref, intent.kind, 'POSITION_QTY_ZERO', 'no open position on the listed syms');
    return;
  }
  if (refusedForBalance(state, intent, reduceOnly, positions)) return;
  closeAll(state, intent.ref, reduceOnly, positions, endOfRun);
}
