/**
 * What a paper session's result must say of how far a backtest of its recording reproduces it,
 * besides what both runs state alike.
 */
export interface PaperParityInput {
  /** Whether the session ran in lockstep (`paper.lockstep`). */
  readonly lockstep: boolean;
  /** Whether the venue matched on the bar fill model. */
  readonly barFillModel: boolean;
}

/**
 * The result's assumptions of a paper session about the backtest of its recording: without
 * lockstep, what the strategies send reaches the venue when it arrives, not at the time of the
 * timer or event it answers, and the session starts before its recording's first event, so the
 * backtest will not reproduce its fills exactly; on bars, the equity curve may differ at a bar's
 * close where a fill came with the next bar (the backtest samples once each bar has been matched).
 * @param input - the session's pacing and fill model
 * @returns the notes, none for a lockstep session on quotes and trades
 */
export function paperParityNotes(input: PaperParityInput): string[] {
  return [...(input.lockstep ? [] : [NOT_LOCKSTEP_NOTE]), ...(input.barFillModel ? [BAR_CURVE_NOTE] : [])];
}

const NOT_LOCKSTEP_NOTE =
  'Without lockstep (paper.lockstep false) the replay ran at paper.speed times the wall clock: the strategies started and set their timers before the first market event the session received, and what they sent (on a timer, or in reaction to an event) ran on the paper venue when it arrived there, later than the timer’s or the event’s time (a bar or more later on a fast replay). A backtest of this session’s recording starts at its first event and runs each command at its time: it will not reproduce these fills exactly. Set paper.lockstep: true for a session its recording’s backtest reproduces.';

const BAR_CURVE_NOTE =
  'On bars, equity is sampled as the events reach the session: a fill stamped at a bar’s close that the venue made while matching the next bar (an order filled at that bar’s open) comes after the sample at that close, which a backtest takes once each bar has been matched. Fills and final equity are the same, but the curve, and the drawdown figures measured on it, may differ at such closes.';
