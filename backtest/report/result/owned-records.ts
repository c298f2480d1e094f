import type { Execution, Order } from '../../../core/model/index.ts';

/**
 * The strategy a record belongs to, as a result file states it: the strategy that placed the
 * order (or whose order an attachment or fired algo order came from), `keel` for the orders Keel
 * itself places (a backtest's end-of-run close), absent when nobody in the run placed it (an
 * order another program placed on the account) and in result files written before Keel
 * recorded it.
 */
export interface StrategyOwned {
  readonly strategyId?: string;
}

/** An order as a result holds it: the venue's order and the strategy owning it. */
export type OrderRecord = Order & StrategyOwned;

/** A fill as a result holds it: the venue's execution and the strategy owning its order. */
export type FillRecord = Execution & StrategyOwned;

/** The owner Keel names for the orders it places itself (a backtest's end-of-run close). */
export const KEEL_OWNER = 'keel';

/**
 * A venue record copied with the strategy owning it, as a result holds it. The owner goes in
 * before the record's fields when the record has none of its own: V8 then copies the fields in
 * one step, where a field added after a spread made every fill and finished order of a run cost
 * several times more to build and to write.
 * @param record - the venue's order or execution
 * @param owner - the strategy owning it
 * @returns a copy with `strategyId` set to the owner
 */
export function withOwner<T extends object>(record: T, owner: string): T & StrategyOwned {
  return 'strategyId' in record ? { ...record, strategyId: owner } : { strategyId: owner, ...record };
}
