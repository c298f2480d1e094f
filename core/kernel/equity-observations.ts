import type { IntentGate } from './kernel-options.ts';
import type { KernelState } from './kernel-state.ts';

/**
 * Most kernel time between two equity observations the market alone makes (Keel's choice): a
 * price move is seen by the kill switch at the first market event at least this long after the
 * previous observation, so a loss that comes from prices alone goes unseen for about a second of
 * market data (plus any gap in the data), and a run observes equity at most once a second for it.
 */
export const MARKET_OBSERVATION_MS = 1000;

const DAY_MS = 86_400_000;

/**
 * When the kernel shows equity to the gate's kill switch besides the gate's own look on every
 * intent: at once after money changed hands (a fill, an account update), and on market data at
 * most once per {@link MARKET_OBSERVATION_MS} of the kernel's time and at the first market event
 * of each UTC day, so a loss, a new high-water
 * mark or a new UTC day's start-of-day equity that prices alone make is seen while the strategies
 * send nothing. The market's looks keep their own pace: a look after money moved does not put off
 * the next one (on bars, a fill at a bar's open comes just before that bar, whose close would
 * otherwise be looked at only a bar later). The time is the kernel's clock: a backtest's virtual time, so the same data trips
 * at the same moment. Nothing is computed for a gate that ignores equity (`watchesEquity()` false:
 * a gate without a loss limit), and between two market observations a market event costs one
 * comparison.
 */
export class EquityObservations {
  /** The kernel time from which market data makes the next observation. */
  #nextAt = Number.NEGATIVE_INFINITY;

  /**
   * @param state - the kernel state (its clock and equity)
   * @param gate - the risk gate
   */
  constructor(
    private readonly state: KernelState,
    private readonly gate: IntentGate,
  ) {}

  /** Money changed hands: the kill switch sees equity now. */
  moneyMoved(): void {
    this.observe(this.state.now());
  }

  /** A market event was folded into the state: the kill switch sees equity if the market's last look is old enough. */
  marketMoved(): void {
    const now = this.state.now();
    if (now < this.#nextAt) return;
    // A new UTC day's first market event observes: its start-of-day equity is the day's opening one.
    this.#nextAt = Math.min(now + MARKET_OBSERVATION_MS, (Math.floor(now / DAY_MS) + 1) * DAY_MS);
    this.observe(now);
  }

  private observe(now: number): void {
    const gate = this.gate;
    if (gate.observeEquity === undefined || gate.watchesEquity?.() === false) return;
    gate.observeEquity(now, this.state.equity());
  }
}
