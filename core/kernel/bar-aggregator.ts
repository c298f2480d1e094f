import type { BarEvent, BarInterval, MarketTradeEvent } from '../model/index.ts';
import { BAR_INTERVAL_MS } from '../model/index.ts';

/**
 * The finest bar interval, in ms: a trade-built bar keeps its volume per minute
 * ({@link BarBuilder.volumeBefore}).
 */
const MINUTE_MS = 60_000;

/**
 * Trades or finer feed bars of a (sym, interval) left out of the bars. `late`: they arrived after
 * the bar they belong to had closed (or after a later bar had started): a strategy already had
 * that bar, and a second bar of the same period would contradict it. `overlap`: finer bars of
 * another interval than the bar was being built from, which began inside a finer bar already in
 * it and held more after it, when the feed switched to that interval (or the bar closed first):
 * folding one would count the overlapping part twice.
 */
export interface LateBarInputs {
  readonly sym: string;
  readonly interval: BarInterval;
  /** What was left out: `trade`, or the interval of the finer feed bars. */
  readonly from: 'trade' | BarInterval;
  /** Why they were left out: see {@link LateBarInputs}. */
  readonly reason: 'late' | 'overlap';
  /** How many were left out. */
  readonly count: number;
  /** The exchange time (`ts`) of the first one left out, epoch ms. */
  readonly firstTs: number;
}

/** One bar being built from trades or from finer feed bars. */
interface BarBuilder {
  readonly sym: string;
  readonly interval: BarInterval;
  readonly ms: number;
  /**
   * True once the feed delivered a bar of this sym and interval: aggregation stops for good, but
   * for the bar left forming then when it is of an earlier period than the feed's (see
   * {@link BarAggregator.onFeedBar}).
   */
  fed: boolean;
  /**
   * Length of the feed bars this bar is built from; 0 while it is built from trades. A finer bar
   * of another interval that begins at or after {@link fedUntil} takes over (the feed switched).
   */
  fromBarsMs: number;
  /** End of the last finer feed bar taken, epoch ms; 0 before any. */
  fedUntil: number;
  /**
   * End of a finer bar of another interval held back as it began before {@link fedUntil} but
   * ends after it; 0 when none. It is dropped once the finer bars reach its end, even after the
   * bar closed (the finer feed skipped a quiet period and went on: the finer bars held all it
   * held), and left out for good ({@link overlapped}) when the feed switches to another interval
   * first, or the run ends with the bar closed short of its end.
   */
  heldEnd: number;
  /** The `ts` of the finer bar held back. */
  heldTs: number;
  /** The interval of the finer bar held back. */
  heldFrom: BarInterval;
  /** Finer bars held back and never covered: see {@link LateBarInputs} (`overlap`). */
  overlapped: number;
  /** The `ts` of the first one. */
  firstOverlappedTs: number;
  /** The interval of the first one. */
  overlappedFrom: BarInterval;
  /**
   * Volume of the forming trade-built bar's trades before each minute of the bar (index: minute
   * from its open), for minutes after {@link firstMinute} up to {@link lastMinute}: when finer
   * feed bars start mid-bar, the trades before the first one's period stay in the bar.
   */
  readonly volumeBefore: Float64Array;
  /** Minute (from the bar's open) of the forming trade-built bar's earliest trade. */
  firstMinute: number;
  /** Minute (from the bar's open) of its latest trade. */
  lastMinute: number;
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** False until the first trade of the current bar. */
  active: boolean;
  /** Open time of the last bar this builder closed; -Infinity before any. */
  lastClosedOpenTime: number;
  /**
   * Start of the first minute with trades of the last closed bar, epoch ms, when it was built from
   * trades; 0 when it was not ({@link tradesUntil} is then 0 too).
   */
  tradesFrom: number;
  /** End of the last minute with trades of the last closed bar built from trades; 0 when none. */
  tradesUntil: number;
  /** The trades or finer bars left out as late: see {@link LateBarInputs}. */
  late: number;
  /** The `ts` of the first one left out. */
  firstLateTs: number;
  /** What the first one left out was: `trade` or the finer interval. */
  lateFrom: 'trade' | BarInterval;
}

/**
 * Builds bars for every (sym, interval) a strategy watches, unless the feed has bars of its own
 * (KLINE): the first feed bar of a (sym, interval) switches aggregation off for it, so
 * `ctx.bars(sym, '5m')` works on any feed and never sees both. A bar forming at the switch is
 * replaced by the feed's when it is of the feed bar's period (or a later one); one of an earlier
 * period (1m klines that stopped before the recording's 5m klines start) is finished and delivered
 * as if the feed had no bars, since the feed will not send it, but no new bar is begun. A bar is
 * built from the feed's closed bars of a finer interval that divides it (1m klines make 5m, 1h or
 * 1d bars, as backtesting.py's resample does), else from trades, as a live feed that changes what
 * it sends would have it: trades until the first finer bar (the trades before its period stay in
 * the bar), then the first finer interval seen until a finer bar of another interval begins where
 * its bars end (a recording whose 1m klines stop and 5m klines start); see
 * {@link BarAggregator.onFinerBar}. Bars are aligned to the epoch (a 1m bar opens on a whole
 * minute). One built from bars closes with the finer bar that ends it, with a finer bar of a later
 * period, or once time is a whole finer interval past its end (its last finer bar is missing): a
 * feed stamps a kline when it receives it, after its close, so other events of that moment must not
 * close the coarser bar without it. One built from trades closes when an event at or past its end
 * arrives. An interval with no trade or finer bar yields no bar (Keel's choice). A trade or finer
 * bar of a period at or before the last closed bar, or before the forming one, arrives late
 * (received after another event ended its period): it is left out and counted
 * ({@link BarAggregator.late}), never opening a second bar of a period the strategy already has;
 * a finer bar of a bar built from trades that lies where the bar's trades were is left out
 * uncounted (its market is in the bar already).
 * When the feed's first bar of a (sym, interval) covers a period an aggregated bar was already
 * delivered for, {@link BarAggregator.covered} says so, so a strategy gets one bar per period.
 */
export class BarAggregator {
  private readonly bySym = new Map<string, BarBuilder[]>();
  private readonly builders: BarBuilder[] = [];
  /** When the earliest forming bar is due to close; +Infinity when none. */
  nextClose = Number.POSITIVE_INFINITY;

  /**
   * Starts building bars of a sym and interval (idempotent).
   * @param sym - the symbol
   * @param interval - the bar interval
   */
  watch(sym: string, interval: BarInterval): void {
    const list = this.bySym.get(sym) ?? [];
    if (list.some((b) => b.interval === interval)) return;
    const builder: BarBuilder = {
      sym,
      interval,
      ms: BAR_INTERVAL_MS[interval],
      fed: false,
      fromBarsMs: 0,
      fedUntil: 0,
      heldEnd: 0,
      heldTs: 0,
      heldFrom: interval,
      overlapped: 0,
      firstOverlappedTs: 0,
      overlappedFrom: interval,
      volumeBefore: new Float64Array(BAR_INTERVAL_MS[interval] / MINUTE_MS),
      firstMinute: 0,
      lastMinute: 0,
      openTime: 0,
      open: 0,
      high: 0,
      low: 0,
      close: 0,
      volume: 0,
      active: false,
      lastClosedOpenTime: Number.NEGATIVE_INFINITY,
      tradesFrom: 0,
      tradesUntil: 0,
      late: 0,
      firstLateTs: 0,
      lateFrom: 'trade',
    };
    list.push(builder);
    this.bySym.set(sym, list);
    this.builders.push(builder);
  }

  /**
   * Adds a trade to the bars of its sym, closing a bar the trade lies beyond.
   * @param trade - the public trade
   * @param emit - receives each bar that closes
   */
  onTrade(trade: MarketTradeEvent, emit: (bar: BarEvent) => void): void {
    const list = this.bySym.get(trade.sym);
    if (list === undefined) return;
    for (const b of list) {
      if (b.fromBarsMs > 0 || (b.fed && !b.active)) continue;
      const p = trade.price;
      const into = trade.ts % b.ms;
      const openTime = trade.ts - into;
      if (isLate(b, openTime)) noteLate(b, trade.ts, 'trade');
      else if (b.fed && openTime !== b.openTime) emit(this.closeBar(b));
      else {
        const minute = (into / MINUTE_MS) | 0;
        if (b.active && openTime === b.openTime) {
          if (minute !== b.lastMinute) noteMinute(b, minute, trade.qty);
        } else {
          b.firstMinute = minute;
          b.lastMinute = minute;
        }
        this.fold(b, openTime, p, p, p, p, trade.qty, emit);
      }
    }
    this.refreshNextClose();
  }

  /**
   * The builder of a bar's (sym, interval), if watched: a loop, not `find` with a closure, as
   * every feed bar asks it twice.
   */
  private builderOf(bar: BarEvent): BarBuilder | undefined {
    const list = this.bySym.get(bar.sym);
    if (list === undefined) return undefined;
    for (let i = 0; i < list.length; i++) {
      const builder = list[i] as BarBuilder;
      if (builder.interval === bar.interval) return builder;
    }
    return undefined;
  }

  /**
   * Notes a bar from the feed: aggregation of its (sym, interval) stops. A bar forming of the feed
   * bar's period or a later one is dropped (the feed's bars replace it); one of an earlier period
   * is left to close as it would have (when due, or on the finer bar or trade that ends it), since
   * the feed will not send a bar of that period.
   * @param bar - the feed's bar
   * @returns true when someone watches this (sym, interval)
   */
  onFeedBar(bar: BarEvent): boolean {
    const builder = this.builderOf(bar);
    if (builder === undefined) return false;
    builder.fed = true;
    if (builder.active && builder.openTime >= bar.openTime) {
      builder.active = false;
      this.refreshNextClose();
    }
    return true;
  }

  /**
   * @param bar - a feed bar of a watched (sym, interval)
   * @returns true when an aggregated bar of the same or a later period was delivered already
   */
  covered(bar: BarEvent): boolean {
    const builder = this.builderOf(bar);
    return builder !== undefined && builder.lastClosedOpenTime >= bar.openTime;
  }

  /**
   * Adds a closed feed bar to the coarser bars of its sym it divides (a 1m bar to 5m and 1h bars),
   * closing a coarser bar it lies beyond and the one it ends. The first finer bar that is not late
   * takes a bar over from trades: the trades before its period stay in the bar, those of its period
   * on are in it or in the finer bars to come, and trades no longer feed the bar. A finer bar of
   * another interval than the one feeding a coarser bar takes over when it begins where the finer
   * bars taken so far end or later (the feed switched: a 15m bar goes on from 5m klines once the
   * 1m klines stop); one that begins before is the same market again (a feed sending both) and is
   * skipped, or, if it also ends after them, held back until the finer bars reach its end, and
   * left out and counted if they do not ({@link LateBarInputs}). Once the feed has bars of the
   * coarser interval, only the bar left forming then (see {@link onFeedBar}) still takes finer
   * bars of its period.
   * @param bar - the feed's closed bar
   * @param emit - receives each coarser bar that closes
   */
  onFinerBar(bar: BarEvent, emit: (bar: BarEvent) => void): void {
    const list = this.bySym.get(bar.sym);
    if (list === undefined || !bar.closed) return;
    const ms = BAR_INTERVAL_MS[bar.interval];
    for (const b of list) {
      if (b.ms <= ms || b.ms % ms !== 0 || (b.fed && !b.active)) continue;
      const openTime = bar.openTime - (bar.openTime % b.ms);
      if (b.fromBarsMs !== ms) {
        if (b.fromBarsMs === 0) {
          // A bar left forming from trades when the feed's own bars started closes from trades.
          if (b.fed) continue;
          if (isLate(b, openTime)) {
            if (!inClosedTrades(b, openTime, bar.openTime, ms)) noteLate(b, bar.ts, bar.interval);
            continue;
          }
          takeOverFromTrades(b, openTime, bar.openTime - openTime, ms);
        } else if (bar.openTime < b.fedUntil) {
          if (bar.openTime + ms > b.fedUntil) this.holdBack(b, openTime, bar);
          continue;
        } else {
          dropHeld(b);
          b.fromBarsMs = ms;
        }
      }
      if (isLate(b, openTime)) {
        noteLate(b, bar.ts, bar.interval);
        continue;
      }
      if (b.fed && openTime !== b.openTime) {
        emit(this.closeBar(b));
        continue;
      }
      this.fold(b, openTime, bar.open, bar.high, bar.low, bar.close, bar.volume, emit);
      b.fedUntil = bar.openTime + ms;
      if (b.heldEnd !== 0 && b.heldEnd <= b.fedUntil) b.heldEnd = 0;
      if (bar.openTime + ms >= b.openTime + b.ms) emit(this.closeBar(b));
    }
    this.refreshNextClose();
  }

  /**
   * Holds back a finer bar of another interval that begins inside the finer bars already taken
   * and ends after them (see {@link onFinerBar}); one held before is left out.
   */
  private holdBack(b: BarBuilder, openTime: number, bar: BarEvent): void {
    if (isLate(b, openTime)) {
      noteLate(b, bar.ts, bar.interval);
      return;
    }
    dropHeld(b);
    b.heldEnd = bar.openTime + BAR_INTERVAL_MS[bar.interval];
    b.heldTs = bar.ts;
    b.heldFrom = bar.interval;
  }

  /**
   * Closes every bar that is due at `ts`, earliest first: one built from trades whose end is at or
   * before `ts`; one built from finer bars whose end is a whole finer interval or more before it.
   * @param ts - the time that has been reached, epoch ms
   * @param emit - receives each bar that closes
   */
  closeDue(ts: number, emit: (bar: BarEvent) => void): void {
    while (this.nextClose <= ts) {
      let due: BarBuilder | undefined;
      for (const b of this.builders) {
        if (b.active && dueAt(b) <= ts && (due === undefined || dueAt(b) < dueAt(due))) due = b;
      }
      if (due === undefined) break;
      emit(this.closeBar(due));
      this.refreshNextClose();
    }
  }

  /**
   * The trades and finer bars left out as late, for a run's end-of-run warnings. Not for the
   * per-event path.
   * @returns one entry per (sym, interval) that left any out, in the order they were watched
   */
  late(): LateBarInputs[] {
    return this.builders.flatMap((b) => [
      ...(b.late > 0
        ? [
            {
              sym: b.sym,
              interval: b.interval,
              from: b.lateFrom,
              reason: 'late' as const,
              count: b.late,
              firstTs: b.firstLateTs,
            },
          ]
        : []),
      ...overlapOf(b),
    ]);
  }

  /**
   * Adds a trade (one price) or a finer bar that is not late ({@link isLate}) to the bar it falls
   * in: closes the forming bar when this one opens a later bar, starts a bar at `openTime` when
   * none is forming.
   */
  private fold(
    b: BarBuilder,
    openTime: number,
    open: number,
    high: number,
    low: number,
    close: number,
    volume: number,
    emit: (bar: BarEvent) => void,
  ): void {
    if (b.active && openTime !== b.openTime) emit(this.closeBar(b));
    if (!b.active) {
      b.active = true;
      b.openTime = openTime;
      b.open = open;
      b.high = high;
      b.low = low;
      b.volume = 0;
    }
    if (high > b.high) b.high = high;
    if (low < b.low) b.low = low;
    b.close = close;
    b.volume += volume;
  }

  private closeBar(b: BarBuilder): BarEvent {
    b.active = false;
    b.lastClosedOpenTime = b.openTime;
    const fromTrades = b.fromBarsMs === 0;
    b.tradesFrom = fromTrades ? b.openTime + b.firstMinute * MINUTE_MS : 0;
    b.tradesUntil = fromTrades ? b.openTime + (b.lastMinute + 1) * MINUTE_MS : 0;
    const end = b.openTime + b.ms;
    return {
      kind: 'bar',
      sym: b.sym,
      ts: end,
      recvTs: end,
      interval: b.interval,
      openTime: b.openTime,
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
      volume: b.volume,
      closed: true,
    };
  }

  private refreshNextClose(): void {
    let next = Number.POSITIVE_INFINITY;
    for (const b of this.builders) if (b.active && dueAt(b) < next) next = dueAt(b);
    this.nextClose = next;
  }
}

/**
 * Whether a trade or finer bar of the period opening at `openTime` comes too late for the bars:
 * its period is at or before the last closed bar's, or before the forming bar's. Folding it would
 * open a second bar of a period the strategy already has, or close the forming bar early.
 */
function isLate(b: BarBuilder, openTime: number): boolean {
  return openTime <= b.lastClosedOpenTime || (b.active && openTime < b.openTime);
}

/**
 * Whether a finer bar (opening at `finerOpen`, `ms` long) of a bar built from trades and closed
 * before it came lies where that bar's trades were: its market is in the bar already, so leaving it
 * out loses nothing (a feed's first kline, stamped after its close, arriving after the next
 * period's first trade closed the bar). The next finer bar takes the bars over from trades.
 */
function inClosedTrades(b: BarBuilder, openTime: number, finerOpen: number, ms: number): boolean {
  return openTime === b.lastClosedOpenTime && finerOpen >= b.tradesFrom && finerOpen + ms <= b.tradesUntil;
}

/**
 * Notes the minute (from the bar's open) of a trade of the forming bar that is not its latest
 * trade's: see {@link BarBuilder.volumeBefore}. Runs once per minute with trades, or for a trade
 * out of order.
 */
function noteMinute(b: BarBuilder, minute: number, qty: number): void {
  const before = b.volumeBefore;
  if (minute > b.lastMinute) {
    for (let k = b.lastMinute + 1; k <= minute; k++) before[k] = b.volume;
    b.lastMinute = minute;
    return;
  }
  if (minute < b.firstMinute) {
    for (let k = minute + 1; k <= b.firstMinute; k++) before[k] = 0;
    b.firstMinute = minute;
  }
  for (let k = minute + 1; k <= b.lastMinute; k++) before[k] = (before[k] as number) + qty;
}

/**
 * Hands a bar over from trades to finer feed bars of length `ms`, the first of which opens `into`
 * ms after the coarser bar at `openTime`. A forming bar of that period keeps its trades before
 * the finer bar's period (the finer bars will not hold them) and sheds the volume of the later
 * ones (the finer bars do hold them); its high and low may keep a later trade's price, which a
 * finer bar of the bar holds too. A forming bar of an earlier period is left to close.
 */
function takeOverFromTrades(b: BarBuilder, openTime: number, into: number, ms: number): void {
  b.fromBarsMs = ms;
  if (!b.active || openTime !== b.openTime) return;
  const minute = into / MINUTE_MS;
  if (minute <= b.firstMinute) b.active = false;
  else if (minute <= b.lastMinute) b.volume = b.volumeBefore[minute] as number;
}

/**
 * The finer bars left out as `overlap`, for {@link BarAggregator.late}: those counted, and one
 * still held back in a bar that closed short of its end (the finer feed never went on).
 */
function overlapOf(b: BarBuilder): LateBarInputs[] {
  const pending = b.heldEnd > b.fedUntil && b.heldEnd <= b.lastClosedOpenTime + b.ms;
  const count = b.overlapped + (pending ? 1 : 0);
  if (count === 0) return [];
  const first = b.overlapped > 0;
  return [
    {
      sym: b.sym,
      interval: b.interval,
      from: first ? b.overlappedFrom : b.heldFrom,
      reason: 'overlap',
      count,
      firstTs: first ? b.firstOverlappedTs : b.heldTs,
    },
  ];
}

/** Leaves out the finer bar held back, unless the finer bars taken have reached its end. */
function dropHeld(b: BarBuilder): void {
  if (b.heldEnd > b.fedUntil) {
    if (b.overlapped === 0) {
      b.firstOverlappedTs = b.heldTs;
      b.overlappedFrom = b.heldFrom;
    }
    b.overlapped++;
  }
  b.heldEnd = 0;
}

function noteLate(b: BarBuilder, ts: number, from: 'trade' | BarInterval): void {
  if (b.late === 0) {
    b.firstLateTs = ts;
    b.lateFrom = from;
  }
  b.late++;
}

/** When a forming bar closes without a later event of its own: see {@link BarAggregator.closeDue}. */
function dueAt(b: BarBuilder): number {
  return b.openTime + b.ms + b.fromBarsMs;
}
