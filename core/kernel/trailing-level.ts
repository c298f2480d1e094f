import type { OrderSide, TrailingOffsetType } from '../model/index.ts';

/**
 * Slack for comparisons in tick units: a price on the tick grid divided by the tick is not always
 * a whole number in binary floating point (100.3 / 0.1 = 1002.9999999999999).
 */
const EPSILON = 1e-6;

/** What one price did to a trailing level. */
export type TrailingStep = 'none' | 'activated' | 'moved' | 'triggered';

/** The numbers a trailing level is made of, converted once from the order's Decimals. */
export interface TrailingLevelParams {
  /** SELL trails the highest price seen, BUY the lowest. */
  readonly side: OrderSide;
  /** The instrument's tick, > 0. */
  readonly tick: number;
  readonly offsetType: TrailingOffsetType;
  /** In the unit of `offsetType`, > 0. */
  readonly offset: number;
  /** Absent = active from the first price. */
  readonly activationPrice?: number;
}

/**
 * The state machine of a trailing stop's level, on plain numbers (it runs on every market event
 * of its sym; no Decimal work). Prices are held in signed ticks - price / tick, negated for a BUY
 * stop - so both sides read alike: the best price is the highest signed value, the stop lies
 * `offset` ticks below it, rounded down to a whole tick (away from the market: a stop on the
 * tick grid, never tighter than asked), and it fires when the price falls to or through it.
 *
 * States: PENDING (waiting for the activation price) -> ACTIVE (trailing) -> TRIGGERED. The stop
 * only ever moves with the position (up for a SELL stop, down for a BUY stop).
 */
export class TrailingLevel {
  /** False until activated. */
  active = false;
  /** True once the price crossed the stop; it then takes no more prices. */
  triggered = false;
  /** The best signed price seen since activation, in ticks. */
  private best = Number.NEGATIVE_INFINITY;
  /** The stop, in whole signed ticks. */
  private stop = Number.NEGATIVE_INFINITY;
  private readonly sign: number;
  private readonly activation: number;

  /** @param params - side, tick, offset and activation price as numbers */
  constructor(private readonly params: TrailingLevelParams) {
    this.sign = params.side === 'SELL' ? 1 : -1;
    this.activation =
      params.activationPrice === undefined
        ? Number.NEGATIVE_INFINITY
        : (this.sign * params.activationPrice) / params.tick;
  }

  /** @returns the stop price (a multiple of the tick, as a number), NaN while not active */
  get stopPrice(): number {
    return this.active ? this.sign * this.stop * this.params.tick : Number.NaN;
  }

  /** @returns the stop in whole ticks of the instrument (stopPrice / tick, exact), NaN while not active */
  get stopTicks(): number {
    return this.active ? this.sign * this.stop : Number.NaN;
  }

  /** @returns the best price seen since activation (highest for SELL, lowest for BUY), NaN while not active */
  get bestPrice(): number {
    return this.active ? this.sign * this.best * this.params.tick : Number.NaN;
  }

  /**
   * Takes one market price.
   * @param price - the price of the source the stop trails (last, mark, bid or ask)
   * @returns what happened: activated (the first trailing price), moved (a new best price moved
   *   the stop), triggered (the price crossed the stop), or none
   */
  next(price: number): TrailingStep {
    if (this.triggered) return 'none';
    const x = (this.sign * price) / this.params.tick;
    if (!this.active) {
      if (x < this.activation - EPSILON) return 'none';
      this.active = true;
      this.raise(x);
      return 'activated';
    }
    if (x > this.best) {
      const before = this.stop;
      this.raise(x);
      return this.stop === before ? 'none' : 'moved';
    }
    if (x <= this.stop + EPSILON) {
      this.triggered = true;
      return 'triggered';
    }
    return 'none';
  }

  private raise(x: number): void {
    this.best = x;
    const { offsetType, offset } = this.params;
    const ticks =
      offsetType === 'TICKS'
        ? offset
        : offsetType === 'PRICE'
          ? offset / this.params.tick
          : (Math.abs(x) * offset) / 10_000;
    // The stop never moves back, even for a new best whose bps offset is wider.
    this.stop = Math.max(this.stop, Math.floor(x - ticks + EPSILON));
  }
}
