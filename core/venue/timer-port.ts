/**
 * Time for the venue's I/O code: the current time and one-shot timers. Live runs use
 * {@link realTimer}; tests pass a fake one so rate limits, backoff and timeouts are deterministic.
 */
export interface TimerPort {
  /** Current time, epoch milliseconds: what receive times, pings and signing read. */
  now(): number;
  /**
   * Milliseconds on a monotonic clock, from an arbitrary origin: what durations and deadlines are
   * measured on, so a wall-clock step (an NTP correction, a VM resume) neither trips nor stalls
   * them. Only differences mean anything. A port without it measures on {@link TimerPort.now}
   * (see {@link monotonicOf}): a fake or replay port whose time never steps needs none.
   */
  monotonic?(): number;
  /**
   * Runs `fn` once after `ms` milliseconds.
   * @param fn - the callback
   * @param ms - delay
   * @returns a function that cancels the timer
   */
  setTimer(fn: () => void, ms: number): () => void;
}

/**
 * What a port measures durations and deadlines on: its monotonic reading, else its `now()`.
 * @param timer - the port
 * @returns ms; only differences of two readings of the same port mean anything
 * @example
 * const began = monotonicOf(timer);
 * // ... wait ...
 * const waitedMs = monotonicOf(timer) - began;
 */
export function monotonicOf(timer: Pick<TimerPort, 'now' | 'monotonic'>): number {
  return timer.monotonic === undefined ? timer.now() : timer.monotonic();
}

/**
 * The wall-clock timer port (live-only I/O code may use real time, ARCHITECTURE.md). Its timers
 * keep the process alive: a retry backoff, a rate-limit wait or a reconnect delay is often the only
 * thing pending, and an unreferenced timer let Node exit mid-wait (code 13, no message). Clients
 * cancel their heartbeat, ping and reconnect timers when closed.
 * Durations are measured on performance.now, which never steps (nor do Node's timers).
 * @returns a port backed by Date.now, performance.now and setTimeout
 */
export function realTimer(): TimerPort {
  return {
    now: () => Date.now(),
    monotonic: () => performance.now(),
    setTimer(fn, ms) {
      const handle = setTimeout(fn, ms);
      return () => clearTimeout(handle);
    },
  };
}

/** A source of random numbers in [0, 1), for backoff jitter. */
export interface JitterSource {
  next(): number;
}

/**
 * Capped exponential backoff with jitter: base * 2^attempt, capped, then scaled into
 * [50 %, 100 %] by the random source so many clients do not reconnect in lockstep.
 * @param attempt - 0 for the first retry
 * @param baseMs - delay of the first retry before jitter
 * @param capMs - the largest delay
 * @param random - jitter source
 * @returns the delay in ms
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: JitterSource): number {
  const raw = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(raw * (0.5 + 0.5 * random.next()));
}
