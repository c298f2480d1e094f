import type { IntentGate, Kernel } from '../../core/kernel/index.ts';
import type { BarEvent, Intent } from '../../core/model/index.ts';
import { KEEL_OWNER } from '../report/index.ts';
import type { CashFlow, SimVenue } from '../sim/index.ts';
import type { EndOfRunCloseListener } from './end-of-run-close-outcomes.ts';

/** Told nothing: for a caller that keeps no record of the close. */
const IGNORED: EndOfRunCloseListener = { denied: () => {}, sent: () => {} };

/** The references of the end-of-run close's commands, and of the orders the venue names after them. */
const END_OF_RUN_REF = /^bt-end\d+-/;

/** The venue's limit on a clientOrderId, which a close order takes from its command's reference. */
const MAX_CLOSE_REF_LENGTH = 40;

/**
 * The reference of the end-of-run close of one position: `bt-end<round>-close-<sym>-<side>` when
 * it fits the venue's 40 characters, else `bt-end<round>-close-<n>` (n counting the round's closes):
 * a longer one would make the venue name the close order with its own id (`SIM-C-<n>`), whose fills
 * could not be told as Keel's own.
 * @param round - the closing round
 * @param sym - the position's sym
 * @param positionSide - the position's leg
 * @param n - the close's index in the round
 * @returns a reference of at most 40 characters
 */
export function endOfRunCloseRef(round: number, sym: string, positionSide: string, n: number): string {
  const named = `bt-end${round}-close-${sym}-${positionSide}`;
  return named.length <= MAX_CLOSE_REF_LENGTH ? named : `bt-end${round}-close-${n}`;
}

/**
 * Who owns an order for the result: the end-of-run close's orders are Keel's own ({@link KEEL_OWNER}),
 * as positions belong to the account, not to one strategy.
 * @param ref - a clientOrderId no strategy owns
 * @returns `keel` for an end-of-run close order, else undefined
 */
export function endOfRunOwner(ref: string): string | undefined {
  return END_OF_RUN_REF.test(ref) ? KEEL_OWNER : undefined;
}

/**
 * Cancels every open order and algo order and closes every position, through the risk gate
 * (all risk-reducing, so approved unless the gate says otherwise) and the venue's latency.
 * @param kernel - the stopped kernel (its state is what the gate judges)
 * @param sim - the simulated venue
 * @param gate - the run's risk gate
 * @param round - which closing round this is, to keep the references apart
 * @param listener - told of each command the gate denied (as Keel's own, `keel`) and of each
 *   position's closing order sent
 * @returns the syms of the positions it sent a close for (none when it only cancelled orders);
 *   undefined when it sent nothing
 */
export async function closeEverything(
  kernel: Kernel,
  sim: SimVenue,
  gate: IntentGate,
  round: number,
  listener: EndOfRunCloseListener = IGNORED,
): Promise<ReadonlySet<string> | undefined> {
  const snapshot = await sim.snapshot();
  const intents: Intent[] = [];
  const syms = new Set([...snapshot.openOrders.map((o) => o.sym)]);
  for (const sym of syms) intents.push({ kind: 'cancelOrders', ref: `bt-end${round}-cancel-${sym}`, sym });
  const algoSyms = new Set(snapshot.openAlgoOrders.map((a) => a.sym));
  for (const sym of algoSyms)
    intents.push({ kind: 'cancelAllAlgoOrders', ref: `bt-end${round}-algo-${sym}`, sym });
  const closed = new Set<string>();
  const open = snapshot.positions.filter((p) => !p.positionQty.isZero());
  open.forEach((p, n) => {
    closed.add(p.sym);
    intents.push({
      kind: 'closePosition',
      ref: endOfRunCloseRef(round, p.sym, p.positionSide, n),
      sym: p.sym,
      positionSide: p.positionSide,
    });
  });
  for (const intent of intents) {
    const decision = gate.evaluate({ strategyId: 'backtest', intent }, kernel.state);
    if (decision.kind === 'approved') {
      sim.submitEndOfRunClose(decision.command);
      if (intent.kind === 'closePosition') listener.sent(intent.sym);
    } else
      listener.denied({
        ts: sim.now(),
        strategyId: KEEL_OWNER,
        intentKind: intent.kind,
        ref: intent.ref,
        ...('sym' in intent && intent.sym !== undefined ? { sym: intent.sym } : {}),
        source: 'risk',
        check: decision.check,
        reason: decision.reason,
      });
  }
  return intents.length > 0 ? closed : undefined;
}

/**
 * The bar on which the bar fill model fills the end-of-run closing orders: no market data, but a
 * bar of no range at the sym's last close, opening when the replay ended, so the market orders
 * fill at that close (as backtesting.py closes its open trades at the last close) as real fills
 * of the simulated venue, fees included. Only the venue sees it, never the strategies or the
 * equity curve's prices.
 * @param last - the sym's last closed bar of the recordings
 * @param openTime - when the replay ended (before the closing orders arrive)
 * @param recvTs - when the venue is given it (after the closing orders arrived)
 * @returns the closing bar
 */
export function closingBar(last: BarEvent, openTime: number, recvTs: number): BarEvent {
  return {
    ...last,
    ts: recvTs,
    recvTs,
    openTime,
    open: last.close,
    high: last.close,
    low: last.close,
    close: last.close,
    volume: 0,
    closed: true,
  };
}

/**
 * Time after the last event during which commands sent at the end may still arrive and be answered,
 * ms. The venue's own timers (expiries, TIME releases, funding, loan interest) stop at the last
 * event: the run ends there, as a paper session stopped at its last event does.
 */
export const END_SETTLE_MS = 60_000;

/**
 * Delivers the commands still on their way that arrive by `until`, one arrival at a time, firing
 * no venue timer due after `end`. The runner calls it once the events ran out, so the warnings
 * and the close's first round see what those commands did (a buy in flight is closed with the
 * rest, not a round later).
 * @param sim - the simulated venue
 * @param until - the latest arrival delivered
 * @param end - receive time of the last event: no timer after it fires
 * @returns the venue's time after the last arrival delivered (when nothing was on its way, its time)
 */
export function deliverInFlight(sim: SimVenue, until: number, end: number): number {
  for (let at = sim.nextDueAt(end); at <= until; at = sim.nextDueAt(end)) sim.advanceTo(at, end);
  return sim.now();
}

/**
 * Closes what is open once every event was delivered: the closing orders arrive after the last
 * event and fill at each sym's last known price, through the venue with its fees. On the bar fill
 * model a market order waits for a bar, so the venue is given {@link closingBar} at the sym's last
 * close; on quotes and trades the orders take the last quote or trade, as any order arriving then.
 * A second round closes a position reopened by a resting order whose cancel lost the race with a fill;
 * further rounds follow while each closes more (see openPositionCount).
 * @param kernel - the stopped kernel
 * @param sim - the simulated venue
 * @param gate - the run's risk gate
 * @param end - receive time of the last event
 * @param lastBars - each sym's last bar, for the closing bar on the bar fill model
 * @param listener - told of each closing command the gate denied and of each closing order sent
 */
export async function closeAfterLastEvent(
  kernel: Kernel,
  sim: SimVenue,
  gate: IntentGate,
  end: number,
  lastBars: ReadonlyMap<string, BarEvent>,
  listener: EndOfRunCloseListener = IGNORED,
): Promise<void> {
  let openBefore = Number.POSITIVE_INFINITY;
  for (let round = 0; ; round++) {
    // The closing bar opens when the closes are sent, so they arrive in time for its open.
    const sentAt = Math.max(end + round * END_SETTLE_MS, sim.now());
    const closed = await closeEverything(kernel, sim, gate, round, listener);
    if (closed === undefined && round > 0) return;
    const settled = end + (round + 1) * END_SETTLE_MS;
    if (sim.fillModelName === 'bar') {
      // The closing bar comes once the closes arrived, not at the window's end; it fires no venue
      // timer after the last event (a bar otherwise runs them up to its receive time once matched).
      const arrived = deliverInFlight(sim, settled, end);
      for (const sym of closed ?? []) {
        const bar = lastBars.get(sym);
        if (bar !== undefined) sim.onMarket(closingBar(bar, sentAt, arrived), end);
      }
    }
    sim.advanceTo(settled, end);
    const open = openPositionCount(await sim.snapshot());
    if (round > 0 && (open === 0 || open >= openBefore)) return;
    openBefore = open;
  }
}

/**
 * Open positions in a venue snapshot. After the second round the close goes on while each round
 * leaves fewer: spot holdings that share a coin may only close one after another (the venue
 * refuses a sale of ETH the balance does not hold until the buy-back of another holding put it
 * there), and a round that closes nothing more ends it, so there are at most as many rounds as
 * positions.
 */
function openPositionCount(snapshot: Awaited<ReturnType<SimVenue['snapshot']>>): number {
  return snapshot.positions.filter((p) => !p.positionQty.isZero()).length;
}

/**
 * When a run ends: at its last event, or at the last fill or cash flow the venue booked after it
 * (the end-of-run close fills a latency after the last event, as may an order in flight; the
 * venue's timers stop at the last event), so the final equity, which holds them, is stamped after
 * them and the trades and exposure end within the run.
 * @param lastEventTs - receive time of the last event
 * @param lastFillTs - time of the run's last fill (-Infinity without any)
 * @param statement - the venue's cash flows, in booking order
 * @returns the run's end, epoch ms
 */
export function runEndOf(lastEventTs: number, lastFillTs: number, statement: readonly CashFlow[]): number {
  let end = Math.max(lastEventTs, lastFillTs);
  for (let i = statement.length - 1; i >= 0; i--) {
    const ts = (statement[i] as CashFlow).ts;
    if (ts <= lastEventTs) break;
    end = Math.max(end, ts);
  }
  return end;
}
