/**
 * The longest delay a Node timer keeps, ms (2^31 - 1, about 24.8 days): a longer one fires at
 * once, with a TimeoutOverflowWarning. A wait beyond it is no wait in practice: set no timer.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
