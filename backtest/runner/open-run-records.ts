import type { Dec } from '../../core/model/index.ts';
import { ONE } from '../../core/model/index.ts';
import {
  CostTally,
  DENIAL_CODEC,
  EntryBatches,
  EXECUTION_CODEC,
  LiquidationJournal,
  ROUND_TRIP_CODEC,
  RoundTripBook,
  type RoundTripTrade,
  type SpillDirectory,
  SpillLog,
  SymTally,
  TradeTally,
  TrailingStopLog,
} from '../report/index.ts';
import { AlgoOrderJournal } from './algo-order-journal.ts';
import type { RunRecords } from './assemble-result.ts';
import { OrderJournal } from './order-journal.ts';

/**
 * Opens the records a run writes as it goes: the order, fill, round-trip, algo order and denial
 * logs spill to the run's directory; a closed round trip is both logged and tallied (for the
 * metrics and per sym), a fill's fee tallied per sym.
 * @param dir - the run's spill directory
 * @param contractSizes - each sym's contract size (a sym not in it counts as 1 in costs)
 * @returns the empty records
 */
export function openRunRecords(dir: SpillDirectory, contractSizes: ReadonlyMap<string, Dec>): RunRecords {
  const trades = new SpillLog(dir, 'trades', ROUND_TRIP_CODEC);
  const tally = new TradeTally(dir);
  const syms = new SymTally();
  const closeTrade = (trade: RoundTripTrade): void => {
    trades.append(trade);
    tally.add(trade);
    syms.addTrade(trade);
  };
  return {
    journal: new OrderJournal(dir),
    fills: new SpillLog(dir, 'fills', EXECUTION_CODEC),
    trades,
    book: new RoundTripBook(closeTrade, (sym) => contractSizes.get(sym)),
    batches: new EntryBatches(),
    costs: new CostTally((sym) => contractSizes.get(sym) ?? ONE),
    tally,
    syms,
    liquidations: new LiquidationJournal(),
    algoOrders: new AlgoOrderJournal(dir),
    denials: new SpillLog(dir, 'denials', DENIAL_CODEC),
    trailingStops: new TrailingStopLog(),
  };
}
