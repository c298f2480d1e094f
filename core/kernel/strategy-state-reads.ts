import type {
  Account,
  AlgoOrder,
  Asset,
  BarEvent,
  BarInterval,
  BookEvent,
  Dec,
  InstrumentSpec,
  LiquidationEventRecord,
  MarketTradeEvent,
  Order,
  Position,
  PositionMode,
  PositionSide,
  QuoteEvent,
} from '../model/index.ts';
import { ZERO } from '../model/index.ts';
import type { EquityEstimate } from './equity-estimate.ts';
import type { KernelState } from './kernel-state.ts';
import { type StrategyLoan, strategyLoan } from './strategy-loan.ts';

/**
 * The read-only half of a strategy's context (`StrategyContext`): what it sees of the kernel state (the whole
 * portfolio, but only its own orders are "its"). Read, never written; the strategy runner
 * adds the hooks, submissions, timers and streams.
 */
export abstract class StrategyStateReads {
  /**
   * @param id - the strategy id (whose orders are "its")
   * @param kernelState - the kernel state
   */
  constructor(
    readonly id: string,
    protected readonly kernelState: KernelState,
  ) {}

  // The StrategyContext methods: read the kernel state, never write it.

  now(): number {
    return this.kernelState.now();
  }
  instrument(sym: string): InstrumentSpec | undefined {
    return this.kernelState.instrument(sym);
  }
  quote(sym: string): QuoteEvent | undefined {
    return this.kernelState.quotes.get(sym);
  }
  lastTrade(sym: string): MarketTradeEvent | undefined {
    return this.kernelState.trades.get(sym);
  }
  book(sym: string): BookEvent | undefined {
    return this.kernelState.books.get(sym);
  }
  markPrice(sym: string): number | undefined {
    return this.kernelState.marks.get(sym)?.markPrice;
  }
  bar(sym: string, interval: BarInterval): BarEvent | undefined {
    return this.kernelState.bar(sym, interval);
  }
  referencePrice(sym: string): number | undefined {
    return this.kernelState.referencePrice(sym);
  }
  position(sym: string, positionSide: PositionSide = 'NONE'): Position | undefined {
    return this.kernelState.positions.get(this.kernelState.legKey(sym, positionSide));
  }
  netQty(sym: string): Dec {
    return this.kernelState.netQty(sym);
  }
  legQty(sym: string, positionSide: PositionSide): Dec {
    return this.kernelState.positionQty(sym, positionSide);
  }
  positionList(): readonly Position[] {
    return [...this.kernelState.positions.values()];
  }
  positionMode(): PositionMode {
    return this.kernelState.positionMode();
  }
  openOrders(sym?: string): readonly Order[] {
    const state = this.kernelState;
    return sym === undefined ? state.openOrders(this.id) : state.openOrdersOn(sym, this.id);
  }
  allOpenOrders(sym?: string): readonly Order[] {
    const state = this.kernelState;
    return sym === undefined ? state.openOrders() : state.openOrdersOn(sym);
  }
  openAlgoOrders(sym?: string): readonly AlgoOrder[] {
    const mine = this.kernelState.openAlgoOrders(this.id);
    return sym === undefined ? mine : mine.filter((o) => o.sym === sym);
  }
  orderByRef(ref: string): Order | undefined {
    return this.kernelState.orderByRef(ref);
  }
  algoOrderByRef(ref: string): AlgoOrder | undefined {
    return this.kernelState.algoOrderByRef(ref);
  }
  balance(coin: string): Dec {
    return this.kernelState.assets.get(coin)?.balance ?? ZERO;
  }
  asset(coin: string): Asset | undefined {
    return this.kernelState.assets.get(coin);
  }
  account(): Account | undefined {
    return this.kernelState.account;
  }
  equity(): Dec {
    return this.kernelState.equity();
  }
  /** @returns equity on numbers and its error bound, for the position sizer (undefined: none) */
  equityEstimate(): EquityEstimate | undefined {
    return this.kernelState.equityEstimate();
  }
  loans(coin?: string): readonly StrategyLoan[] {
    const out: StrategyLoan[] = [];
    for (const loan of this.kernelState.loans.values())
      if ((coin === undefined || loan.coin === coin) && !loan.principal.isZero())
        out.push(strategyLoan(loan));
    return out;
  }
  liquidation(): LiquidationEventRecord | undefined {
    return this.kernelState.liquidation;
  }
  adlRank(sym: string, positionSide: PositionSide = 'NONE'): number {
    return this.kernelState.adlRanks.get(this.kernelState.legKey(sym, positionSide)) ?? 0;
  }
}
