import type { Observable } from 'rxjs';
import { Subject } from 'rxjs';
import type {
  AlgoOrder,
  BarEvent,
  Execution,
  MarketTradeEvent,
  Order,
  Position,
  QuoteEvent,
} from '../model/index.ts';
import type { IntentDenied, TimerEvent } from './strategy-events.ts';
import type { TrailingStop } from './trailing-stop.ts';

/**
 * A strategy's event streams for the reactive style (`ctx.quotes(sym)`, `ctx.fills()`, ...): one
 * subject per stream, made when first asked for (quotes and trades per sym, bars per sym and
 * interval), fed by the runner as it delivers events and completed when the strategy stops.
 */
export class StrategyStreams {
  /** Made on the first `quotes(sym)`, so a strategy without quote streams costs one check per quote. */
  private quoteSubjects: Map<string, Subject<QuoteEvent>> | undefined;
  private tradeSubjects: Map<string, Subject<MarketTradeEvent>> | undefined;
  private readonly barSubjects = new Map<string, Subject<BarEvent>>();
  /** Fills of the strategy's orders. */
  readonly fill$ = new Subject<Execution>();
  /** Updates of the strategy's orders. */
  readonly order$ = new Subject<Order>();
  /** Every position update. */
  readonly position$ = new Subject<Position>();
  /** The strategy's denied intents. */
  readonly denial$ = new Subject<IntentDenied>();
  /** The strategy's timer events. */
  readonly timer$ = new Subject<TimerEvent>();
  /** Status changes of the strategy's emulated trailing stops. */
  readonly trailingStop$ = new Subject<TrailingStop>();
  /** Reports of the strategy's algo orders. */
  readonly algoOrder$ = new Subject<AlgoOrder>();

  /**
   * Hot path: feeds a BBO update to its sym's stream, if any.
   * @param event - the quote
   */
  nextQuote(event: QuoteEvent): void {
    if (this.quoteSubjects !== undefined) nextIfObserved(this.quoteSubjects.get(event.sym), event);
  }

  /**
   * Hot path: feeds a public trade to its sym's stream, if any.
   * @param event - the trade
   */
  nextTrade(event: MarketTradeEvent): void {
    if (this.tradeSubjects !== undefined) nextIfObserved(this.tradeSubjects.get(event.sym), event);
  }

  /**
   * Feeds a closed bar to its (sym, interval) stream, if any.
   * @param event - the bar
   * @param key - its `{sym}|{interval}` key, as the router computed it once for the bar
   */
  nextBar(event: BarEvent, key: string): void {
    nextIfObserved(this.barSubjects.get(key), event);
  }

  /**
   * @param sym - the symbol
   * @returns BBO updates of a sym
   */
  quotes(sym: string): Observable<QuoteEvent> {
    this.quoteSubjects ??= new Map();
    return subjectFor(this.quoteSubjects, sym).asObservable();
  }

  /**
   * @param sym - the symbol
   * @returns public trades of a sym
   */
  trades(sym: string): Observable<MarketTradeEvent> {
    this.tradeSubjects ??= new Map();
    return subjectFor(this.tradeSubjects, sym).asObservable();
  }

  /**
   * @param key - `sym|interval`
   * @returns closed bars of that sym and interval (the caller watches them)
   */
  bars(key: string): Observable<BarEvent> {
    return subjectFor(this.barSubjects, key).asObservable();
  }

  /** Completes every stream: the strategy stopped or was halted. */
  complete(): void {
    for (const subject of [this.fill$, this.order$, this.position$, this.denial$, this.timer$])
      subject.complete();
    this.trailingStop$.complete();
    this.algoOrder$.complete();
    for (const subject of this.barSubjects.values()) subject.complete();
    for (const subject of this.quoteSubjects?.values() ?? []) subject.complete();
    for (const subject of this.tradeSubjects?.values() ?? []) subject.complete();
  }
}

function subjectFor<T>(map: Map<string, Subject<T>>, key: string): Subject<T> {
  let subject = map.get(key);
  if (subject === undefined) {
    subject = new Subject<T>();
    map.set(key, subject);
  }
  return subject;
}

/**
 * Emits a value on a stream of a strategy's, unless nothing subscribes to it: the kernel feeds
 * every stream on every event or update, and rxjs's `next` costs a closure and an iterator even
 * with no subscriber. The streams are the runner's own (strategies see them through
 * `asObservable`), so none is ever closed and `next` without a subscriber does nothing.
 * @param subject - the stream, or undefined when there is none for the value
 * @param value - the value
 */
export function nextIfObserved<T>(subject: Subject<T> | undefined, value: T): void {
  if (subject?.observed === true) subject.next(value);
}
