/**
 * The time axes' tick labels, as page JavaScript: lightweight-charts labels a day by its number
 * alone (`14`), which on a run of several months says nothing of the month. The report's script
 * gives the charts this formatter, and the tests evaluate the same text.
 */

/** The name {@link TICK_LABEL_SCRIPT} defines its function under. */
export const TICK_LABEL_FUNCTION = 'tickLabel';

/**
 * Longest tick label {@link TICK_LABEL_SCRIPT} writes, in characters (`14 Feb 2024`): the
 * library spaces the ticks by it.
 */
export const TICK_LABEL_MAX_LENGTH = 11;

/**
 * Defines `tickLabel(time, type, withYear)` (plain ES2017, pure): the label of a tick at `time`
 * (epoch seconds, shown in UTC) of lightweight-charts' tick mark type `type` (0 year, 1 month,
 * 2 day of month, 3 time, 4 time with seconds). A year's tick reads `Jan 2025`, a month's `Feb`,
 * a day's `14 Feb`; with `withYear` (a run spanning more than one calendar year) a month's and a
 * day's carry the year too (`Feb 2024`, `14 Feb 2024`). A time of day returns null: the library's
 * own `09:30` stays.
 */
export const TICK_LABEL_SCRIPT = `function ${TICK_LABEL_FUNCTION}(time, type, withYear) {
  var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  var d = new Date(time * 1000);
  var month = MONTHS[d.getUTCMonth()];
  var year = String(d.getUTCFullYear());
  if (type === 0) return month + ' ' + year;
  if (type === 1) return withYear ? month + ' ' + year : month;
  if (type === 2) return d.getUTCDate() + ' ' + month + (withYear ? ' ' + year : '');
  return null;
}`;
