/**
 * One time axis for every chart of the report, as page JavaScript: lightweight-charts spaces a
 * chart's points by their index, not their time, so charts whose points fall at different times
 * place the same time at different x. Each chart gets every time any chart draws (those it has no
 * value at as whitespace), and the same time then sits at the same x on all. The report's script
 * runs it, and the tests evaluate the same text.
 */

/** The name {@link CHART_TIMELINE_SCRIPT} defines the shared timeline's function under. */
export const SHARED_TIMELINE_FUNCTION = 'sharedTimeline';

/** The name {@link CHART_TIMELINE_SCRIPT} defines the whitespace filler's function under. */
export const ON_TIMELINE_FUNCTION = 'onTimeline';

/**
 * Defines (plain ES2017, pure) `sharedTimeline(lists)`: given lists of items each with a numeric
 * `time`, in time order, returns every time of any of them once, ascending; and
 * `onTimeline(timeline, items)`: the items with a whitespace item `{ time }` put in at each time
 * of the timeline they have none at, in time order.
 */
export const CHART_TIMELINE_SCRIPT = `function ${SHARED_TIMELINE_FUNCTION}(lists) {
  var all = [];
  lists.forEach(function (items) { items.forEach(function (item) { all.push(item.time); }); });
  all.sort(function (a, b) { return a - b; });
  return all.filter(function (t, i) { return i === 0 || t !== all[i - 1]; });
}
function ${ON_TIMELINE_FUNCTION}(timeline, items) {
  var out = [];
  var j = 0;
  timeline.forEach(function (time) {
    if (j < items.length && items[j].time === time) out.push(items[j++]);
    else out.push({ time: time });
  });
  return out;
}`;
