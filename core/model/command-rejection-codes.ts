/**
 * Keel-local codes of a `commandRejected` event that carries no venue code: Keel's choice,
 * negative so they never collide with the venue's codes (all positive). A strategy sees them in
 * `onDenied` as the check `venue.<code>`, e.g. `venue.-1`.
 */

/**
 * The command's outcome is unknown: no answer came (timeout, connection lost, 5xx without a venue
 * code) and the venue could not tell whether it ran (its look-ups failed, or the venue's state
 * cannot show it). The command may have taken effect: do not send it again blindly; look at the
 * venue's state first (orders acted on are looked up by the kernel and come back as updates).
 */
export const COMMAND_OUTCOME_UNKNOWN = -1;

/**
 * The command's answer was lost, but Keel looked the command up and the venue's state shows it
 * did not take effect (e.g. no algo order with its reference). Nothing ran: sending it again
 * (with a new reference) is safe.
 */
export const COMMAND_NOT_APPLIED = -2;

/**
 * The venue's own code (per the spec's error table) for a modify or cancel of an order that is
 * already final (filled, cancelled): Keel's view of the order is stale, so the kernel looks the
 * order up rather than leaving it at its last known state, where a strategy would repeat the
 * command. The simulated venue uses the same code.
 */
export const VENUE_ORDER_ALREADY_FINAL = 401058;

/**
 * The venue's code (per public venue docs) for a cancel of an order already completed, "so it
 * cannot be cancelled": the same race as {@link VENUE_ORDER_ALREADY_FINAL}, settled the same way.
 */
export const VENUE_ORDER_ALREADY_COMPLETED = 401117;

/**
 * The venue's code (its error table) for a modify or cancel of an order or algo order it has no
 * record of ("order not found"). The simulated venue uses the same code.
 */
export const VENUE_ORDER_NOT_FOUND = 401018;

/**
 * Whether a venue code refuses a modify or cancel because the order is already final (filled or
 * cancelled): {@link VENUE_ORDER_ALREADY_FINAL} or {@link VENUE_ORDER_ALREADY_COMPLETED}. Keel's
 * view of such an order is stale, so its orders are looked up; the one list the kernel and the
 * venue adapter share, so neither treats one of the codes as an ordinary refusal.
 * @param code - a `commandRejected` event's code
 * @returns true for a refusal of an order already final
 */
export function refusesAFinalOrder(code: number): boolean {
  return code === VENUE_ORDER_ALREADY_FINAL || code === VENUE_ORDER_ALREADY_COMPLETED;
}

/**
 * Whether a venue code refuses a cancel because the venue holds no such order open: not found,
 * or already final.
 * @param code - a `commandRejected` event's code
 * @returns true when the venue shows the order is not open there
 */
export function showsNoOpenOrder(code: number): boolean {
  return code === VENUE_ORDER_NOT_FOUND || refusesAFinalOrder(code);
}
