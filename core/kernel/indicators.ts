import type { HighLowClose } from 'trading-signals';
import { ATR, BollingerBands, EMA, RSI } from 'trading-signals';

/** Upper, middle and lower Bollinger band. */
export interface Bands {
  readonly lower: number;
  readonly middle: number;
  readonly upper: number;
}

/**
 * An indicator behind a warm-up flag (Keel's own {@link sma}, or one from `trading-signals`):
 * `value` stays undefined and `warm` false until the indicator has seen enough inputs to be
 * stable, so a strategy does not act on a half-formed signal.
 */
export interface WarmIndicator<In, Out> {
  /** True once the indicator is stable. */
  readonly warm: boolean;
  /** The latest value once warm, else undefined. */
  readonly value: Out | undefined;
  /**
   * Feeds one input.
   * @param input - a price, or a bar for ATR
   * @returns the new value once warm, else undefined
   */
  update(input: In): Out | undefined;
}

/** The part of a trading-signals indicator the wrapper uses. */
interface SignalsIndicator<In, Out> {
  readonly isStable: boolean;
  add(input: In): Out | null;
}

/**
 * Wraps any trading-signals indicator with the warm-up flag.
 * @param indicator - a trading-signals indicator instance
 * @returns the wrapped indicator
 * @example
 * const macd = warmUp(new MACD(new EMA(12), new EMA(26), new EMA(9)));
 */
export function warmUp<In, Out>(indicator: SignalsIndicator<In, Out>): WarmIndicator<In, Out> {
  let value: Out | undefined;
  return {
    get warm() {
      return indicator.isStable;
    },
    get value() {
      return value;
    },
    update(input: In): Out | undefined {
      const result = indicator.add(input);
      value = indicator.isStable && result !== null ? result : undefined;
      return value;
    },
  };
}

/**
 * Simple moving average: the mean of the last `period` inputs, warm once it has seen that many;
 * the same doubles as trading-signals' SMA (the same additions in the same order).
 * @param period - number of inputs, a whole number of at least 1
 * @returns a warm-up-flagged SMA
 * @throws RangeError when `period` is not a whole number of at least 1
 * @example
 * const fast = sma(10);
 * fast.update(bar.close);
 * if (fast.warm && fast.value! > slow.value!) ...
 */
export function sma(period: number): WarmIndicator<number, number> {
  if (!Number.isInteger(period) || period < 1)
    throw new RangeError(`sma(period) needs a whole number of inputs of at least 1, got ${period}`);
  // The last `period` inputs in a ring, summed oldest first from 0 and divided by the period: the
  // very additions trading-signals' SMA makes (so the same doubles), without its array shift,
  // argument record and reduce callback on every bar.
  const inputs = new Float64Array(period);
  let next = 0;
  let seen = 0;
  let value: number | undefined;
  return {
    get warm() {
      return value !== undefined;
    },
    get value() {
      return value;
    },
    update(input: number): number | undefined {
      inputs[next] = input;
      next = next + 1 === period ? 0 : next + 1;
      if (seen < period) seen++;
      if (seen < period) return undefined;
      let sum = 0;
      for (let i = next; i < period; i++) sum += inputs[i] as number;
      for (let i = 0; i < next; i++) sum += inputs[i] as number;
      value = sum / period;
      return value;
    },
  };
}

/**
 * Exponential moving average.
 * @param period - smoothing period
 * @returns a warm-up-flagged EMA
 */
export function ema(period: number): WarmIndicator<number, number> {
  return warmUp(new EMA(period));
}

/**
 * Relative strength index (0-100).
 * @param period - lookback, e.g. 14
 * @returns a warm-up-flagged RSI
 */
export function rsi(period: number): WarmIndicator<number, number> {
  return warmUp(new RSI(period));
}

/**
 * Average true range over bars (high, low, close).
 * @param period - lookback, e.g. 14
 * @returns a warm-up-flagged ATR
 */
export function atr(period: number): WarmIndicator<HighLowClose<number>, number> {
  return warmUp(new ATR(period));
}

/**
 * Bollinger bands.
 * @param period - lookback, e.g. 20
 * @param deviations - band width in standard deviations, default 2
 * @returns warm-up-flagged bands
 */
export function bollinger(period: number, deviations = 2): WarmIndicator<number, Bands> {
  return warmUp(new BollingerBands(period, deviations));
}
