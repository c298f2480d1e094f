/**
 * The trades of one sym over a rolling time window: traded volume, highest and lowest price.
 * Amortised O(1) per trade (monotonic queues for high and low), numbers only: it runs on every
 * trade of the feed and no money changes hands.
 */
export class RollingTradeWindow {
  private readonly times: number[] = [];
  private readonly prices: number[] = [];
  private readonly sizes: number[] = [];
  private head = 0;
  /** Indexes of trades whose price may still become the high (prices decreasing). */
  private highs: number[] = [];
  private highHead = 0;
  /** Indexes of trades whose price may still become the low (prices increasing). */
  private lows: number[] = [];
  private lowHead = 0;
  private sum = 0;

  /** @param windowMs - length of the window, ms (24 h on the venue) */
  constructor(private readonly windowMs: number) {}

  /**
   * Adds a trade and drops those that left the window.
   * @param ts - trade time, epoch ms (non-decreasing)
   * @param price - trade price
   * @param qty - trade size
   */
  add(ts: number, price: number, qty: number): void {
    const i = this.times.length;
    this.times.push(ts);
    this.prices.push(price);
    this.sizes.push(qty);
    this.sum += qty;
    while (this.highs.length > this.highHead && (this.prices[this.highs.at(-1) as number] as number) <= price)
      this.highs.pop();
    this.highs.push(i);
    while (this.lows.length > this.lowHead && (this.prices[this.lows.at(-1) as number] as number) >= price)
      this.lows.pop();
    this.lows.push(i);
    this.expire(ts);
  }

  /** @returns the highest price in the window, NaN when it holds no trade */
  get high(): number {
    return this.highHead < this.highs.length
      ? (this.prices[this.highs[this.highHead] as number] as number)
      : Number.NaN;
  }

  /** @returns the lowest price in the window, NaN when it holds no trade */
  get low(): number {
    return this.lowHead < this.lows.length
      ? (this.prices[this.lows[this.lowHead] as number] as number)
      : Number.NaN;
  }

  /** @returns the volume traded in the window (float sum: round it to the lot for display) */
  get volume(): number {
    return Math.max(0, this.sum);
  }

  private expire(now: number): void {
    const from = now - this.windowMs;
    while (this.head < this.times.length && (this.times[this.head] as number) <= from) {
      this.sum -= this.sizes[this.head] as number;
      if (this.highs[this.highHead] === this.head) this.highHead++;
      if (this.lows[this.lowHead] === this.head) this.lowHead++;
      this.head++;
    }
    if (this.head === this.times.length) this.sum = 0;
    if (this.head > 1024 && this.head * 2 > this.times.length) this.compact();
  }

  /** Drops expired trades from the arrays so memory stays bounded by the window. */
  private compact(): void {
    const cut = this.head;
    this.times.splice(0, cut);
    this.prices.splice(0, cut);
    this.sizes.splice(0, cut);
    this.head = 0;
    this.highs = this.highs.slice(this.highHead).map((i) => i - cut);
    this.lows = this.lows.slice(this.lowHead).map((i) => i - cut);
    this.highHead = 0;
    this.lowHead = 0;
  }
}
