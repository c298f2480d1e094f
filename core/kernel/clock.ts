/**
 * The clock port: the only way core code learns the time. Live runs use wall time; backtests
 * use virtual time driven by event time.
 */
export interface Clock {
  /** Current time, epoch milliseconds. */
  now(): number;
}
