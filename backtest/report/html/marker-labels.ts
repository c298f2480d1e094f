/**
 * Which fill markers of a price chart carry their text at the chart's current zoom, as page
 * JavaScript: the report's script runs it on every change of the visible range or width, and
 * the tests evaluate the same text.
 */

/**
 * Empty pixels kept between two neighbouring labels (Keel's choice: about one character of the
 * chart's 12 px font), on top of the widest label's own width; half of it between a label and
 * another bar's arrow.
 */
export const MARKER_LABEL_GAP = 8;

/** Half the widest arrow lightweight-charts draws as a marker (31 px, at 30 px a bar or more). */
export const MARKER_ARROW_HALF_WIDTH = 15;

/**
 * The name {@link MARKER_LABELS_SCRIPT} defines its function under.
 */
export const MARKER_LABELS_FUNCTION = 'labelledMarkers';

/**
 * Defines `labelledMarkers(positions, range, width, spacing, clearance)` (plain ES2017, pure):
 * given the markers' logical positions on the time scale (bar indices, in non-decreasing order),
 * the visible logical range `{ from, to }`, the plot's width in CSS pixels, the least distance in
 * pixels between two labels' centres (`spacing`) and between a label's centre and another bar's
 * marker (`clearance`), returns one boolean per marker, true where its text is drawn. A marker
 * less than `spacing / 2` inside the plot's edges gets none (its label would be cut off); from
 * left to right each other marker gets its text when it lies at least `spacing` right of the
 * last labelled one and `clearance` from the nearest markers of other bars, so no label overlaps
 * another or another bar's arrow. A label is hidden only for one of those reasons, so every
 * marker well inside the plot is labelled when they all lie far enough apart; of markers on one
 * bar at most one is. An empty range or a plot of no width labels nothing.
 */
export const MARKER_LABELS_SCRIPT = `function ${MARKER_LABELS_FUNCTION}(positions, range, width, spacing, clearance) {
  var span = range.to - range.from;
  var xs = positions.map(function (p) { return span > 0 && width > 0 ? (p - range.from) * width / span : NaN; });
  var n = xs.length;
  // Each marker's nearest x of another bar, on its left and on its right.
  var left = [];
  for (var i = 0; i < n; i++) left.push(i === 0 ? -Infinity : positions[i - 1] === positions[i] ? left[i - 1] : xs[i - 1]);
  var right = [];
  for (var j = n - 1; j >= 0; j--) right[j] = j === n - 1 ? Infinity : positions[j + 1] === positions[j] ? right[j + 1] : xs[j + 1];
  var labelled = [];
  var lastX = -Infinity;
  for (var k = 0; k < n; k++) {
    var x = xs[k];
    var fits = x >= spacing / 2 && x <= width - spacing / 2 && x - lastX >= spacing && x - left[k] >= clearance && right[k] - x >= clearance;
    if (fits) lastX = x;
    labelled.push(fits);
  }
  return labelled;
}`;
