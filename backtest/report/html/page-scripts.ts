/**
 * The report page's own JavaScript, inlined as text. Kept in plain ES2017 so any browser that
 * opens the file runs it.
 */

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
 */
export const CHART_SCRIPT = `(function () {
  var LC = window.LightweightCharts;
  var PRINT_WIDTH = ${PRINT_CHART_WIDTH};
  var data = JSON.parse(document.getElementById('keel-chart-data').textContent);
  function line(points) { return points.map(function (p) { return { time: p[0], value: p[1] }; }); }
  // The chart's box sets its size (the stylesheet gives its height), so it follows the window.
  function chartIn(id) {
    var el = document.getElementById(id);
    var chart = LC.createChart(el, {
      autoSize: true,
      layout: { background: { type: 'solid', color: '#ffffff' }, textColor: '#333333', attributionLogo: false },
      grid: { vertLines: { color: '#f0f0f0' }, horzLines: { color: '#f0f0f0' } },
      timeScale: { timeVisible: true, secondsVisible: false, minBarSpacing: 0.0001 },
      handleScroll: false,
      handleScale: false
    });
    // The box is an image named by its summary; the library's layout table is not content.
    el.firstElementChild.setAttribute('aria-hidden', 'true');
    return chart;
  }
  var charts = [];
  data.prices.forEach(function (series, i) {
    var chart = chartIn('price-chart-' + i);
    var s = chart.addSeries(LC.LineSeries, { color: '#2962ff', lineWidth: 2, title: series.sym });
    s.setData(line(series.points));
    if (series.markers.length > 0) LC.createSeriesMarkers(s, series.markers);
    charts.push(chart);
  });
  var equity = chartIn('equity-chart');
  equity.addSeries(LC.AreaSeries, {
    lineColor: '#2962ff', topColor: 'rgba(41, 98, 255, 0.35)', bottomColor: 'rgba(41, 98, 255, 0.02)', lineWidth: 2
  }).setData(line(data.equity));
  charts.push(equity);
  var drawdown = chartIn('drawdown-chart');
  drawdown.addSeries(LC.AreaSeries, {
    lineColor: '#f23645', topColor: 'rgba(242, 54, 69, 0.05)', bottomColor: 'rgba(242, 54, 69, 0.45)', lineWidth: 2,
    invertFilledArea: true,
    // lightweight-charts' own 'percent' format rounds -0.28 to -0.1 %: two decimals, written out.
    priceFormat: { type: 'custom', minMove: 0.01, formatter: function (p) { return p.toFixed(2) + '%'; } }
  }).setData(line(data.drawdown));
  charts.push(drawdown);
  charts.forEach(function (c) { c.timeScale().fitContent(); });
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
    document.body.setAttribute('data-ready', 'true');
  }
  requestAnimationFrame(function () { requestAnimationFrame(markReady); });
})();`;
