/**
 * The report page's own JavaScript, inlined as text. Kept in plain ES2017 so any browser that
 * opens the file runs it.
 */
import { CHART_TIMELINE_SCRIPT, ON_TIMELINE_FUNCTION, SHARED_TIMELINE_FUNCTION } from './chart-timeline.ts';
import {
  MARKER_ARROW_HALF_WIDTH,
  MARKER_LABEL_GAP,
  MARKER_LABELS_FUNCTION,
  MARKER_LABELS_SCRIPT,
} from './marker-labels.ts';
import { TICK_LABEL_FUNCTION, TICK_LABEL_MAX_LENGTH, TICK_LABEL_SCRIPT } from './time-axis-labels.ts';

/**
 * Runs first: records every uncaught error, rejected promise and console.error into the page
 * (`#keel-errors` and `body[data-errors]`), so a user sees a broken chart and a headless check
 * can read the failure back from the DOM.
 */
export const ERROR_CAPTURE_SCRIPT = `(function () {
  var errors = [];
  function record(message) {
    errors.push(String(message));
    document.body.setAttribute('data-errors', String(errors.length));
    var box = document.getElementById('keel-errors');
    if (box) { box.hidden = false; box.textContent = 'Report errors:\\n' + errors.join('\\n'); }
  }
  window.addEventListener('error', function (e) { record('Uncaught ' + (e.message || e.type)); });
  window.addEventListener('unhandledrejection', function (e) { record('Unhandled rejection ' + e.reason); });
  var consoleError = console.error;
  console.error = function () {
    record(Array.prototype.join.call(arguments, ' '));
    return consoleError.apply(console, arguments);
  };
  document.body.setAttribute('data-errors', '0');
})();`;

/**
 * Widest a chart is drawn for print, CSS pixels (Keel's choice): an A4 page's content at the
 * browsers' default margins is about 718 px wide, a Letter page's about 739.
 */
export const PRINT_CHART_WIDTH = 700;

/**
 * Draws the charts from `#keel-chart-data` with lightweight-charts, each filling its box (and
 * following it when the window changes; at most {@link PRINT_CHART_WIDTH} wide on paper), hides
 * the library's layout table from screen readers (the box is an image named by its summary),
 * then marks the page ready
 * (`body[data-ready=true]`) and writes on each chart how many pixels it painted
 * (`data-painted-pixels`) and where it is (`data-rect` = x,y,width,height in CSS pixels).
 * The charts share one timeline ({@link CHART_TIMELINE_SCRIPT}) and, once drawn, one price-scale
 * width (the widest's, written on each box as `data-price-scale-width`), so a time sits at the
 * same x on all of them (each box says where its first and last time are: `data-timeline-x`). The time axes' ticks name the month ({@link TICK_LABEL_SCRIPT}), and the
 * year when the run spans more than one; they show seconds when the run is shorter than an hour.
 * A price chart on bar data draws each bucket's bar range (low to high, a tick at the close) in
 * grey under its line.
 * A price chart zooms (mouse wheel, pinch, dragging its time axis) and pans (dragging it), and a
 * double click fits the whole run again; its fill markers carry their text where it fits at the
 * current zoom ({@link MARKER_LABELS_SCRIPT}, re-decided as the visible range or the width
 * changes), and its box says how many do (`data-labelled-markers`).
 */
export const CHART_SCRIPT = `(function () {
  var LC = window.LightweightCharts;
  var PRINT_WIDTH = ${PRINT_CHART_WIDTH};
  var data = JSON.parse(document.getElementById('keel-chart-data').textContent);
  function line(points) { return points.map(function (p) { return { time: p[0], value: p[1] }; }); }
  // A run shorter than an hour labels its time axis to the second (else every label of a
  // few-minute paper session reads the same minute).
  var eq = data.equity;
  var seconds = eq.length > 1 && eq[eq.length - 1][0] - eq[0][0] < 3600;
  ${CHART_TIMELINE_SCRIPT}
  ${TICK_LABEL_SCRIPT}
  function ranged(ranges) {
    return ranges.map(function (r) { return { time: r[0], open: r[3], high: r[2], low: r[1], close: r[3] }; });
  }
  var timeline = ${SHARED_TIMELINE_FUNCTION}(data.prices.map(function (p) { return line(p.points); })
    .concat(data.prices.map(function (p) { return ranged(p.ranges); }), [line(data.equity), line(data.drawdown)]));
  var withYear = timeline.length > 1 &&
    new Date(timeline[0] * 1000).getUTCFullYear() !== new Date(timeline[timeline.length - 1] * 1000).getUTCFullYear();
  var indexOnTimeline = {};
  timeline.forEach(function (t, i) { indexOnTimeline[t] = i; });
  // The chart's box sets its size (the stylesheet gives its height), so it follows the window.
  // A zoomable one takes the wheel, pinch and drags along its time axis, not beyond the run.
  function chartIn(id, zoomable) {
    var el = document.getElementById(id);
    var chart = LC.createChart(el, {
      autoSize: true,
      layout: { background: { type: 'solid', color: '#ffffff' }, textColor: '#333333', attributionLogo: false },
      grid: { vertLines: { color: '#f0f0f0' }, horzLines: { color: '#f0f0f0' } },
      timeScale: {
        timeVisible: true, secondsVisible: seconds, minBarSpacing: 0.0001, fixLeftEdge: zoomable, fixRightEdge: zoomable,
        tickMarkMaxCharacterLength: ${TICK_LABEL_MAX_LENGTH},
        tickMarkFormatter: function (time, type) { return ${TICK_LABEL_FUNCTION}(time, type, withYear); }
      },
      handleScroll: zoomable && { mouseWheel: false, pressedMouseMove: true, horzTouchDrag: true, vertTouchDrag: false },
      handleScale: zoomable && {
        mouseWheel: true, pinch: true, axisPressedMouseMove: { time: true, price: false }, axisDoubleClickReset: false
      }
    });
    if (zoomable) chart.subscribeDblClick(function () { chart.timeScale().fitContent(); });
    // The box is an image named by its summary; the library's layout table is not content.
    el.firstElementChild.setAttribute('aria-hidden', 'true');
    return chart;
  }
  ${MARKER_LABELS_SCRIPT}
  // The widest marker text, in CSS pixels, in the font the library draws it in.
  function widestText(chart, markers) {
    var layout = chart.options().layout;
    var context = document.createElement('canvas').getContext('2d');
    context.font = layout.fontSize + 'px ' + layout.fontFamily;
    return markers.reduce(function (widest, m) { return Math.max(widest, context.measureText(m.text).width); }, 0);
  }
  // The fill markers, each with its text where it overlaps no other label and no other bar's
  // arrow at the chart's zoom: decided again when the visible range or the width changes, and
  // the markers set again when that changed which.
  function drawMarkers(chart, lineSeries, series, el) {
    var positions = series.markers.map(function (m) { return indexOnTimeline[m.time]; });
    var bare = series.markers.map(function (m) { return Object.assign({}, m, { text: '' }); });
    var widest = widestText(chart, series.markers);
    var spacing = widest + ${MARKER_LABEL_GAP};
    var clearance = widest / 2 + ${MARKER_ARROW_HALF_WIDTH + MARKER_LABEL_GAP / 2};
    var plugin = LC.createSeriesMarkers(lineSeries, bare);
    var drawn = null;
    function relabel() {
      var range = chart.timeScale().getVisibleLogicalRange();
      var labelled = range === null ? [] : ${MARKER_LABELS_FUNCTION}(positions, range, chart.timeScale().width(), spacing, clearance);
      var key = labelled.join();
      if (key === drawn) return;
      drawn = key;
      plugin.setMarkers(series.markers.map(function (m, i) { return labelled[i] ? m : bare[i]; }));
      el.setAttribute('data-labelled-markers', String(labelled.filter(Boolean).length));
    }
    chart.timeScale().subscribeVisibleLogicalRangeChange(relabel);
    chart.timeScale().subscribeSizeChange(relabel);
    relabel();
  }
  var charts = [];
  data.prices.forEach(function (series, i) {
    var id = 'price-chart-' + i;
    var chart = chartIn(id, true);
    // No series title: the chart's heading names the sym, and a title badge would cover the
    // latest prices and their markers.
    if (series.ranges.length > 0) {
      chart.addSeries(LC.BarSeries, {
        upColor: '#8c959f', downColor: '#8c959f', thinBars: true, openVisible: false,
        priceLineVisible: false, lastValueVisible: false
      }).setData(${ON_TIMELINE_FUNCTION}(timeline, ranged(series.ranges)));
    }
    var s = chart.addSeries(LC.LineSeries, { color: '#2962ff', lineWidth: 2 });
    s.setData(${ON_TIMELINE_FUNCTION}(timeline, line(series.points)));
    if (series.markers.length > 0) drawMarkers(chart, s, series, document.getElementById(id));
    charts.push(chart);
  });
  var equity = chartIn('equity-chart', false);
  equity.addSeries(LC.AreaSeries, {
    lineColor: '#2962ff', topColor: 'rgba(41, 98, 255, 0.35)', bottomColor: 'rgba(41, 98, 255, 0.02)', lineWidth: 2
  }).setData(${ON_TIMELINE_FUNCTION}(timeline, line(data.equity)));
  charts.push(equity);
  var drawdown = chartIn('drawdown-chart', false);
  drawdown.addSeries(LC.AreaSeries, {
    lineColor: '#f23645', topColor: 'rgba(242, 54, 69, 0.05)', bottomColor: 'rgba(242, 54, 69, 0.45)', lineWidth: 2,
    invertFilledArea: true,
    // lightweight-charts' own 'percent' format rounds -0.28 to -0.1 %: two decimals, written out.
    priceFormat: { type: 'custom', minMove: 0.01, formatter: function (p) { return p.toFixed(2) + '%'; } }
  }).setData(${ON_TIMELINE_FUNCTION}(timeline, line(data.drawdown)));
  charts.push(drawdown);
  charts.forEach(function (c) { c.timeScale().fitContent(); });
  // Each chart's price scale is as wide as its own labels: all take the widest, else the plots
  // differ in width and one time sits at different x (once drawn, when the widths are known).
  function alignPriceScales() {
    var widest = charts.reduce(function (w, c) { return Math.max(w, c.priceScale('right').width()); }, 0);
    charts.forEach(function (c) {
      c.applyOptions({ rightPriceScale: { minimumWidth: widest } });
      // The fit was made for the narrower plot: made again, all span the run alike.
      c.timeScale().fitContent();
    });
  }
  // A printout lays the page out at the paper's width without telling the charts: before printing
  // they take a width that fits an A4 or Letter page, and follow their boxes again after.
  window.addEventListener('beforeprint', function () {
    charts.forEach(function (c) {
      var box = c.chartElement().parentElement;
      c.applyOptions({ autoSize: false, width: Math.min(box.clientWidth, PRINT_WIDTH), height: box.clientHeight });
      c.timeScale().fitContent();
    });
  });
  window.addEventListener('afterprint', function () {
    charts.forEach(function (c) {
      // The library keeps a fixed size on its element when its box takes over again.
      c.chartElement().style.width = '100%';
      c.chartElement().style.height = '100%';
      c.applyOptions({ autoSize: true });
      c.timeScale().fitContent();
    });
  });

  function paintedPixels(el) {
    var count = 0;
    el.querySelectorAll('canvas').forEach(function (canvas) {
      if (canvas.width === 0 || canvas.height === 0) return;
      var pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (var i = 0; i < pixels.length; i += 4) {
        if (pixels[i + 3] > 0 && (pixels[i] < 200 || pixels[i + 1] < 200 || pixels[i + 2] < 200)) count++;
      }
    });
    return count;
  }
  function markReady() {
    document.querySelectorAll('.chart').forEach(function (el) {
      var r = el.getBoundingClientRect();
      el.setAttribute('data-painted-pixels', String(paintedPixels(el)));
      el.setAttribute('data-rect', [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height].map(Math.round).join(','));
    });
    charts.forEach(function (c) {
      var box = c.chartElement().parentElement;
      box.setAttribute('data-price-scale-width', String(c.priceScale('right').width()));
      var ends = [timeline[0], timeline[timeline.length - 1]].map(function (t) { return c.timeScale().timeToCoordinate(t); });
      box.setAttribute('data-timeline-x', ends.map(function (x) { return x === null ? '' : x.toFixed(1); }).join(','));
    });
    document.body.setAttribute('data-ready', 'true');
  }
  requestAnimationFrame(function () {
    alignPriceScales();
    requestAnimationFrame(function () { requestAnimationFrame(markReady); });
  });
})();`;
