import type { BarEvent, BarInterval, MarketTradeEvent } from '../model/index.ts';
import { BAR_INTERVAL_MS } from '../model/index.ts';

/**
 * The finest bar interval, in ms: a trade-built bar keeps its volume per minute
 * ({@link BarBuilder.volumeBefore}).
 */
const MINUTE_MS = 60_000;

/**
 * Trades or feed bars of a (sym, interval) left out of the bars. `late`: they arrived after
 * the bar they belong to had closed (or after a later bar had started): a strategy already had
 * that bar, and a second bar of the same period would contradict it. `overlap`: finer bars of
 * another interval than the bar was being built from, which began inside a finer bar already in
 * it and held more after it, when the feed switched to that interval (or the bar closed first):
 * folding one would count the overlapping part twice. `repeat`: feed bars of a period the feed
 * already gave (the same kline twice: overlapping history files, a resent message), of the
 * interval itself (not delivered again) or finer (not folded again). `offGrid`: finer bars that
 * straddle the end of the bar (1h klines opening on the half hour, a CSV written in a UTC+5:30
 * zone): part of their market lies after the bar's end, so they are in no bar; or bars of the
 * interval itself off its grid that overlap a bar built and delivered before the feed's bars
 * began (not delivered: no two bars of an interval overlap). `stopped`: trades of a bar built
 * from finer bars that stopped, passed over until the bar went back to trades (see
 * {@link BarAggregator}).
 */
export interface LateBarInputs {
  readonly sym: string;
  readonly interval: BarInterval;
  /** What was left out: `trade`, or the interval of the feed bars. */
  readonly from: 'trade' | BarInterval;
  /** Why they were left out: see {@link LateBarInputs}. */
  readonly reason: 'late' | 'overlap' | 'repeat' | 'offGrid' | 'stopped';
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
   * Where the market of this (sym, interval) is known from, epoch ms: when it was first watched,
   * the live start after a warm-up on history ({@link BarAggregator.goLive}), or just after the
   * last trade left out as its finer klines stopped ({@link BarAggregator.onTrade}). A bar of a
   * period begun before, whose market is known only from after its open, is partial.
   */
  since: number;
  /**
   * End of the latest closed feed bar of this sym and interval (the open of a forming one when
   * later), epoch ms; 0 before any. The trades and finer bars of the periods before it are the
   * feed's: they build no bar, but for the bar left forming when the feed's bars began (see
   * {@link BarAggregator.onFeedBar}).
   */
  feedThrough: number;
  /**
   * True while the feed's bars of this sym and interval keep coming: a bar built of a period at or
   * after {@link feedThrough} waits {@link graceOf} past its end for the feed's bar of that period,
   * which replaces it; when that does not come, the built bar is delivered and the feed's bars
   * no longer take precedence (they stopped: a recording of 1h klines that ends, 1h history
   * before a live feed of 1m klines).
   */
  feedLive: boolean;
  /** Open time of the latest closed feed bar delivered; -Infinity before any. */
  lastFeedOpen: number;
  /**
   * A bar built from trades that awaits the feed's bar of its period, set aside as a trade of the
   * next period began one: delivered at {@link pendingDue} unless the feed's bar comes first.
   */
  pending: BarEvent | undefined;
  pendingDue: number;
  /**
   * Trades or finer bars of the pending bar's period that came after it was set aside: the feed's
   * bar has them; late if the pending bar is delivered instead.
   */
  readonly pendingLate: LeftOut;
  /** Feed bars left out as repeats: see {@link LateBarInputs} (`repeat`). */
  readonly repeated: LeftOut;
  /** Finer bars left out as they straddle the bar's end: see {@link LateBarInputs} (`offGrid`). */
  readonly offGrid: LeftOut;
  /**
   * Length of the feed bars this bar is built from; 0 while it is built from trades. A finer bar
   * of another interval that begins at or after {@link fedUntil} takes over (the feed switched).
   */
  fromBarsMs: number;
  /** End of the last finer feed bar taken, epoch ms; 0 before any. */
  fedUntil: number;
  /**
   * Trades at or after {@link fedUntil} passed over while built from finer bars, since the last
   * one taken: the next finer bar holds them, unless the finer bars stopped ({@link backToTrades}).
   */
  readonly unfed: LeftOut;
  /** The `ts` of the latest one. */
  lastUnfedTs: number;
  /** Trades left out as the finer bars stopped: see {@link LateBarInputs} (`stopped`). */
  readonly stopped: LeftOut;
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
  /**
   * Whether the forming bar holds only part of its period's market: it began before
   * {@link since} and its first trade, or first finer bar's open, is after its open.
   */
  partial: boolean;
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
  readonly late: LeftOut;
}

/** A tally of trades or feed bars left out of a (sym, interval)'s bars for one reason. */
interface LeftOut {
  count: number;
  /** The `ts` of the first one. */
  firstTs: number;
  /** What the first one was: `trade` or the interval of the feed bar. */
  from: 'trade' | BarInterval;
}

/** A tally as the entry {@link BarAggregator.late} lists; none when nothing was left out. */
function leftOutAs(b: BarBuilder, reason: LateBarInputs['reason'], t: LeftOut): LateBarInputs[] {
  if (t.count === 0) return [];
  return [{ sym: b.sym, interval: b.interval, from: t.from, reason, count: t.count, firstTs: t.firstTs }];
}

/** An empty tally. */
function noneLeftOut(): LeftOut {
  return { count: 0, firstTs: 0, from: 'trade' };
}

/** Counts one more left out: a trade or feed bar at `ts`. */
function tally(t: LeftOut, ts: number, from: 'trade' | BarInterval): void {
  if (t.count === 0) {
    t.firstTs = ts;
    t.from = from;
  }
  t.count++;
}

/** Adds the tally `from` to `into` (its first one counts when `into` has none) and empties `from`. */
function moveTally(from: LeftOut, into: LeftOut): void {
  if (from.count === 0) return;
  if (into.count === 0) {
    into.firstTs = from.firstTs;
    into.from = from.from;
  }
  into.count += from.count;
  from.count = 0;
}

/**
 * Builds bars for every (sym, interval) a strategy watches, unless the feed has bars of its own
 * (KLINE): the feed's bars of a (sym, interval) take precedence while they keep coming, so
 * `ctx.bars(sym, '5m')` works on any feed and never sees two bars of one period. The periods the
 * feed has bars of build nothing; a bar of a later one is built alongside and waits a grace past
 * its end for the feed's bar of its period, which replaces it; when that does not come (a
 * recording of 1h klines that ends while 1m klines go on), the built bar is delivered and bars are
 * built as if the feed had none, until its bars come again. Feed bars off the grid (1h klines
 * opening on the half hour) take precedence over every built bar overlapping them: one that went
 * before the feed's bars began leaves the first of them out, counted. A warm-up on history ends the
 * precedence of the history's bars of the intervals the live feed does not send
 * ({@link BarAggregator.goLive}): a live feed of 1m klines does not go on with a CSV's 1h bars. A bar forming when the feed's bars begin is
 * replaced by the feed's when it is of the feed bar's period; one of an earlier period (1m klines
 * that stopped before the recording's 5m klines start) is finished and delivered, since the feed
 * will not send it. A bar is built from the feed's closed bars of a finer interval that divides it (1m klines make 5m, 1h or
 * 1d bars, as backtesting.py's resample does), else from trades, as a live feed that changes what
 * it sends would have it: trades until the first finer bar (the trades before its period stay in
 * the bar), then the first finer interval seen until a finer bar of another interval begins where
 * its bars end (a recording whose 1m klines stop and 5m klines start); see
 * {@link BarAggregator.onFinerBar}. When the finer bars stop while trades go on, the bar goes back
 * to trades once no bar is forming and the next finer bar is a whole finer interval overdue: the
 * trades in between are left out, counted, and the first bar built of them is partial. Bars are aligned to the epoch (a 1m bar opens on a whole
 * minute); a finer bar reaching past the end of the bar it begins in (1h klines opening on the
 * half hour) is in no bar, and counted. One built from bars closes with the finer bar that ends
 * it, with a finer bar of a later period, or once time is a whole finer interval past its end (its last finer bar is missing): a
 * feed stamps a kline when it receives it, after its close, so other events of that moment must not
 * close the coarser bar without it. One built from trades closes when an event at or past its end
 * arrives. The bars it builds of a sym that close at the same instant are delivered finest first
 * (after the feed bar that closed them). An interval with no trade or finer bar yields no bar
 * (Keel's choice). A trade or finer bar of a period at or before the last closed bar, or before the forming one, arrives late
 * (received after another event ended its period): it is left out and counted
 * ({@link BarAggregator.late}), never opening a second bar of a period the strategy already has;
 * a feed bar of a period the feed already gave is a repeat, left out and counted likewise;
 * a finer bar of a bar built from trades that lies where the bar's trades were is left out
 * uncounted (its market is in the bar already). When a feed bar comes for a period a built bar
 * was delivered for already, {@link BarAggregator.admitFeedBar} says so: one bar per period.
 */
export class BarAggregator {
  private readonly bySym = new Map<string, BarBuilder[]>();
  private readonly builders: BarBuilder[] = [];
  /** When the earliest forming bar is due to close; +Infinity when none. */
  nextClose = Number.POSITIVE_INFINITY;

  /**
   * Starts building bars of a sym and interval (idempotent). A bar it builds of a period begun
   * before `since` from trades, or from finer bars the first of which began after its open, holds
   * only the market since (a live start, or a `watchBars` mid-run, mid-bar): it is flagged
   * `partial: true`.
   * @param sym - the symbol
   * @param interval - the bar interval
   * @param since - the time it is watched from, epoch ms; default: the beginning of time
   */
  watch(sym: string, interval: BarInterval, since = Number.NEGATIVE_INFINITY): void {
    const list = this.bySym.get(sym) ?? [];
    if (list.some((b) => b.interval === interval)) return;
    const builder: BarBuilder = {
      sym,
      interval,
      ms: BAR_INTERVAL_MS[interval],
      since,
      feedThrough: 0,
      feedLive: false,
      lastFeedOpen: Number.NEGATIVE_INFINITY,
      pending: undefined,
      pendingDue: 0,
      pendingLate: noneLeftOut(),
      repeated: noneLeftOut(),
      offGrid: noneLeftOut(),
      fromBarsMs: 0,
      fedUntil: 0,
      unfed: noneLeftOut(),
      lastUnfedTs: 0,
      stopped: noneLeftOut(),
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
      partial: false,
      open: 0,
      high: 0,
      low: 0,
      close: 0,
      volume: 0,
      active: false,
      lastClosedOpenTime: Number.NEGATIVE_INFINITY,
      tradesFrom: 0,
      tradesUntil: 0,
      late: noneLeftOut(),
    };
    // Finest first: bars of a sym closing at the same instant are delivered in that order.
    const at = list.findIndex((b) => b.ms > builder.ms);
    list.splice(at === -1 ? list.length : at, 0, builder);
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
      if (b.fromBarsMs > 0 && !backToTrades(b, trade.ts)) continue;
      const p = trade.price;
      const into = trade.ts % b.ms;
      const openTime = trade.ts - into;
      if (this.feedHas(b, openTime, emit)) continue;
      if (b.pending !== undefined && openTime === b.pending.openTime) tally(b.pendingLate, trade.ts, 'trade');
      else if (isLate(b, openTime)) tally(b.late, trade.ts, 'trade');
      else {
        const minute = (into / MINUTE_MS) | 0;
        if (b.active && openTime === b.openTime) {
          if (minute !== b.lastMinute) noteMinute(b, minute, trade.qty);
        } else {
          b.firstMinute = minute;
          b.lastMinute = minute;
        }
        this.fold(b, openTime, trade.ts, p, p, p, p, trade.qty, emit);
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
   * Whether the feed's own bars have the period opening at `openTime` (see
   * {@link BarBuilder.feedThrough}), so a trade or finer bar of it builds nothing; one of a later
   * period than a bar left forming from before the feed's bars began ends that bar.
   */
  private feedHas(b: BarBuilder, openTime: number, emit: (bar: BarEvent) => void): boolean {
    if (openTime >= b.feedThrough || (b.active && openTime === b.openTime)) return false;
    if (b.active && openTime > b.openTime) this.endForming(b, emit);
    return true;
  }

  /**
   * Notes a bar from the feed, closed or forming: its bars take precedence over the bars built of
   * its (sym, interval) while they keep coming (see {@link BarBuilder.feedLive}). A closed one
   * drops the bar built of its period (forming, or set aside to wait for it); a bar forming of an
   * earlier period is left to close as it would have (when due, or on the finer bar or trade that
   * ends it), since the feed will not send a bar of that period. Idempotent.
   * @param bar - the feed's bar
   * @returns true when someone watches this (sym, interval)
   */
  onFeedBar(bar: BarEvent): boolean {
    const b = this.builderOf(bar);
    if (b === undefined) return false;
    // A bar of a new period says the feed's bars keep coming; a repeat of an old kline does not.
    if (bar.openTime > b.lastFeedOpen) b.feedLive = true;
    const into = bar.openTime % b.ms;
    const end = bar.openTime + b.ms;
    // Off the grid (1h klines on the half hour), the feed's next bar holds the rest of the period its bar ends in.
    const through = !bar.closed ? bar.openTime - into : into === 0 ? end : end - into + b.ms;
    if (through > b.feedThrough) b.feedThrough = through;
    if (!bar.closed) return true;
    if (b.pending !== undefined && b.pending.openTime < end && b.pending.openTime + b.ms > bar.openTime) {
      b.pending = undefined;
      b.pendingLate.count = 0;
    }
    if (b.active && b.openTime < end && b.openTime + b.ms > bar.openTime) b.active = false;
    this.refreshNextClose();
    return true;
  }

  /**
   * Whether a closed feed bar of a watched (sym, interval) goes to the strategies: not when a bar
   * of its period went already, built ({@link BarAggregator.onFeedBar} came too late to replace
   * it) or the feed's own (a repeat, counted: see {@link LateBarInputs}), nor when a built bar
   * overlapping it went (a feed bar off the grid, counted as `offGrid`): no two bars delivered of
   * an interval overlap.
   * @param bar - a closed feed bar, after {@link BarAggregator.onFeedBar}
   * @returns true when it is to be delivered
   */
  admitFeedBar(bar: BarEvent): boolean {
    const b = this.builderOf(bar);
    if (b === undefined) return false;
    if (bar.openTime <= b.lastFeedOpen) {
      tally(b.repeated, bar.ts, bar.interval);
      return false;
    }
    b.lastFeedOpen = bar.openTime;
    if (b.lastClosedOpenTime + b.ms <= bar.openTime) return true;
    if (bar.openTime % b.ms !== 0) tally(b.offGrid, bar.ts, bar.interval);
    return false;
  }

  /**
   * Ends a warm-up on history. The precedence of the history's feed bars ends for the intervals
   * the live feed does not send (a CSV's 1h bars, which a live feed of 1m klines does not go on
   * with): bars of the later periods are built from trades and finer bars, until the feed's own
   * bars come. Those of the intervals it sends keep it (the first live 1m bar is the venue's
   * kline, not one built of the trades since the start). A bar not yet begun holds the market
   * from `since` on: the first live bar of a period begun before is partial.
   * @param since - the live start, epoch ms
   * @param liveIntervals - the bar intervals the live feed sends
   */
  goLive(since: number, liveIntervals: readonly BarInterval[]): void {
    for (const b of this.builders) {
      if (!liveIntervals.includes(b.interval)) b.feedLive = false;
      if (since > b.since) b.since = since;
    }
    this.refreshNextClose();
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
   * left out and counted if they do not ({@link LateBarInputs}). One of the interval feeding the
   * bar that begins before the end of those taken is a repeat, left out and counted. A finer bar
   * reaching past the end of the coarser bar it begins in (klines off the UTC grid) is left out
   * and counted. The periods the feed has bars of the coarser interval for take no finer bars,
   * but for the bar left forming when they began (see {@link onFeedBar}).
   * @param bar - the feed's closed bar
   * @param emit - receives each coarser bar that closes
   */
  onFinerBar(bar: BarEvent, emit: (bar: BarEvent) => void): void {
    const list = this.bySym.get(bar.sym);
    if (list === undefined || !bar.closed) return;
    const ms = BAR_INTERVAL_MS[bar.interval];
    for (const b of list) {
      if (b.ms <= ms || b.ms % ms !== 0) continue;
      const openTime = bar.openTime - (bar.openTime % b.ms);
      if (bar.openTime + ms > openTime + b.ms) {
        this.leaveOffGrid(b, openTime, bar, emit);
        continue;
      }
      if (this.feedHas(b, openTime, emit)) continue;
      if (b.pending !== undefined && openTime === b.pending.openTime) {
        tally(b.pendingLate, bar.ts, bar.interval);
        continue;
      }
      if (b.fromBarsMs !== ms) {
        if (b.fromBarsMs === 0) {
          if (isLate(b, openTime)) {
            if (!inClosedTrades(b, openTime, bar.openTime, ms)) tally(b.late, bar.ts, bar.interval);
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
        tally(b.late, bar.ts, bar.interval);
        continue;
      }
      if (bar.openTime < b.fedUntil) {
        // Of the interval feeding the bar, beginning before the end of those taken: a repeat.
        tally(b.repeated, bar.ts, bar.interval);
        continue;
      }
      this.fold(b, openTime, bar.openTime, bar.open, bar.high, bar.low, bar.close, bar.volume, emit);
      b.fedUntil = bar.openTime + ms;
      b.unfed.count = 0;
      if (b.heldEnd !== 0 && b.heldEnd <= b.fedUntil) b.heldEnd = 0;
      if (bar.openTime + ms >= b.openTime + b.ms && !awaitsFeed(b)) emit(this.closeBar(b));
    }
    this.refreshNextClose();
  }

  /**
   * Leaves out a finer bar that begins inside the coarser bar at `openTime` and ends after it
   * (see {@link LateBarInputs}, `offGrid`). It ends that bar when forming from finer bars: no
   * finer bar of it is to come.
   */
  private leaveOffGrid(b: BarBuilder, openTime: number, bar: BarEvent, emit: (bar: BarEvent) => void): void {
    tally(b.offGrid, bar.ts, bar.interval);
    if (b.active && b.openTime === openTime && b.fromBarsMs > 0 && !awaitsFeed(b)) emit(this.closeBar(b));
  }

  /**
   * Holds back a finer bar of another interval that begins inside the finer bars already taken
   * and ends after them (see {@link onFinerBar}); one held before is left out.
   */
  private holdBack(b: BarBuilder, openTime: number, bar: BarEvent): void {
    if (isLate(b, openTime)) {
      tally(b.late, bar.ts, bar.interval);
      return;
    }
    dropHeld(b);
    b.heldEnd = bar.openTime + BAR_INTERVAL_MS[bar.interval];
    b.heldTs = bar.ts;
    b.heldFrom = bar.interval;
  }

  /**
   * Closes every bar that is due at `ts`, earliest first (finest first at the same time): one
   * built from trades whose end is at or before `ts`; one built from finer bars whose end is a
   * whole finer interval or more before it; one awaiting the feed's bar of its period (see
   * {@link BarBuilder.feedLive}) a grace past its end ({@link graceOf}), which ends the feed's
   * precedence.
   * @param ts - the time that has been reached, epoch ms
   * @param emit - receives each bar that closes
   */
  closeDue(ts: number, emit: (bar: BarEvent) => void): void {
    while (this.nextClose <= ts) {
      let due: BarBuilder | undefined;
      let dueTs = Number.POSITIVE_INFINITY;
      for (const b of this.builders) {
        const at = nextDue(b);
        if (at <= ts && (at < dueTs || (at === dueTs && b.ms < (due as BarBuilder).ms))) {
          due = b;
          dueTs = at;
        }
      }
      if (due === undefined) break;
      if (due.pending !== undefined && due.pendingDue === dueTs) this.deliverPending(due, emit);
      else {
        if (awaitsFeed(due)) due.feedLive = false;
        emit(this.closeBar(due));
      }
      this.refreshNextClose();
    }
  }

  /**
   * The trades and feed bars left out, for a run's end-of-run warnings. Not for the per-event
   * path.
   * @returns one entry per (sym, interval) and reason that left any out, in the order they were
   *   watched
   */
  late(): LateBarInputs[] {
    return this.builders.flatMap((b) => [
      ...leftOutAs(b, 'late', b.late),
      ...overlapOf(b),
      ...leftOutAs(b, 'repeat', b.repeated),
      ...leftOutAs(b, 'stopped', b.stopped),
      ...leftOutAs(b, 'offGrid', b.offGrid),
    ]);
  }

  /**
   * Adds a trade (one price) or a finer bar that is not late ({@link isLate}) to the bar it falls
   * in: ends the forming bar when this one opens a later bar ({@link endForming}), starts a bar at
   * `openTime` when none is forming, its market known from `from` (the trade's time, the finer
   * bar's open).
   */
  private fold(
    b: BarBuilder,
    openTime: number,
    from: number,
    open: number,
    high: number,
    low: number,
    close: number,
    volume: number,
    emit: (bar: BarEvent) => void,
  ): void {
    if (b.active && openTime !== b.openTime) this.endForming(b, emit);
    if (!b.active) {
      b.active = true;
      b.openTime = openTime;
      b.partial = openTime < b.since && from > openTime;
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

  /**
   * Ends the forming bar as a trade or finer bar of a later period arrived: delivers it, or, when
   * it awaits the feed's bar of its period ({@link awaitsFeed}), sets it aside until that comes or
   * its grace runs out ({@link BarBuilder.pending}).
   */
  private endForming(b: BarBuilder, emit: (bar: BarEvent) => void): void {
    if (!awaitsFeed(b)) {
      emit(this.closeBar(b));
      return;
    }
    if (b.pending !== undefined) this.deliverPending(b, emit);
    b.pendingDue = dueAt(b);
    b.pending = this.closeBar(b, false);
  }

  /** Delivers the bar set aside for the feed's bar that did not come: the feed's bars stopped. */
  private deliverPending(b: BarBuilder, emit: (bar: BarEvent) => void): void {
    const bar = b.pending as BarEvent;
    b.pending = undefined;
    b.feedLive = false;
    if (bar.openTime > b.lastClosedOpenTime) b.lastClosedOpenTime = bar.openTime;
    moveTally(b.pendingLate, b.late);
    emit(bar);
  }

  /**
   * The forming bar as a closed bar event; `delivered` (default) marks it the last closed one,
   * else it is set aside ({@link endForming}).
   */
  private closeBar(b: BarBuilder, delivered = true): BarEvent {
    b.active = false;
    if (delivered) {
      b.lastClosedOpenTime = b.openTime;
      const fromTrades = b.fromBarsMs === 0;
      b.tradesFrom = fromTrades ? b.openTime + b.firstMinute * MINUTE_MS : 0;
      b.tradesUntil = fromTrades ? b.openTime + (b.lastMinute + 1) * MINUTE_MS : 0;
    }
    const end = b.openTime + b.ms;
    const bar: BarEvent = {
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
    return b.partial ? { ...bar, partial: true } : bar;
  }

  private refreshNextClose(): void {
    let next = Number.POSITIVE_INFINITY;
    for (const b of this.builders) {
      const at = nextDue(b);
      if (at < next) next = at;
    }
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

/**
 * Whether the forming bar awaits the feed's bar of its period, which would replace it: the
 * feed's bars keep coming and it is of a period at or after theirs (see {@link BarBuilder.feedLive}).
 */
function awaitsFeed(b: BarBuilder): boolean {
  return b.feedLive && b.openTime >= b.feedThrough;
}

/**
 * How long past its end a bar awaiting the feed's bar of its period waits for it: a finer
 * interval when built from finer bars (the feed sends its bars of one close together), a minute
 * (the finest interval) when built from trades.
 */
function graceOf(b: BarBuilder): number {
  return b.fromBarsMs > 0 ? b.fromBarsMs : MINUTE_MS;
}

/** When a forming bar closes without a later event of its own: see {@link BarAggregator.closeDue}. */
function dueAt(b: BarBuilder): number {
  return b.openTime + b.ms + (awaitsFeed(b) ? graceOf(b) : b.fromBarsMs);
}

/** The earliest of the forming bar's and the pending bar's due times; +Infinity when neither. */
function nextDue(b: BarBuilder): number {
  const forming = b.active ? dueAt(b) : Number.POSITIVE_INFINITY;
  return b.pending !== undefined && b.pendingDue < forming ? b.pendingDue : forming;
}

/**
 * Whether a bar built from finer bars goes back to trades as a trade at `ts` arrives: no bar is
 * forming (one that is closes when due, without its missing finer bars) and the finer bar after
 * the last one taken is a whole finer interval overdue (the finer bars stopped while trades go on).
 * The trades passed over since are left out, counted (`stopped`), and the bar holding the latest
 * of them is partial ({@link BarBuilder.since}). Else the trade is passed over, noted when the
 * next finer bar is to hold it ({@link BarBuilder.unfed}).
 */
function backToTrades(b: BarBuilder, ts: number): boolean {
  if (b.active || ts < b.fedUntil + 2 * b.fromBarsMs) {
    if (ts >= b.fedUntil) {
      tally(b.unfed, ts, 'trade');
      b.lastUnfedTs = ts;
    }
    return false;
  }
  b.fromBarsMs = 0;
  if (b.unfed.count > 0) {
    moveTally(b.unfed, b.stopped);
    if (b.lastUnfedTs >= b.since) b.since = b.lastUnfedTs + 1;
  }
  return true;
}
