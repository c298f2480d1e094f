import type { HighLowClose } from 'trading-signals';
import { ATR, BollingerBands, EMA, RSI, SMA } from 'trading-signals';

/** Upper, middle and lower Bollinger band. */
export interface Bands {
  readonly lower: number;
  readonly middle: number;
  readonly upper: number;
}

/**
 * An indicator from `trading-signals` behind a warm-up flag: `value` stays undefined and
 * `warm` false until the indicator has seen enough inputs to be stable, so a strategy does not
 * act on a half-formed signal.
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
 * Simple moving average.
 * @param period - number of inputs
 * @returns a warm-up-flagged SMA
 * @example
 * const fast = sma(10);
 * fast.update(bar.close);
 * if (fast.warm && fast.value! > slow.value!) ...
 */
export function sma(period: number): WarmIndicator<number, number> {
  return warmUp(new SMA(period));
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
