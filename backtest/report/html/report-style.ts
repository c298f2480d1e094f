/** The report's stylesheet: readable offline, no web fonts, printable. */
export const REPORT_CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 24px 48px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #1f2328; background: #ffffff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 20px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
.sub { color: #59636e; margin: 0 0 8px; }
.banner { padding: 8px 12px; border-radius: 6px; font-weight: 600; margin: 8px 0; }
.banner.synthetic { background: #fff8c5; border: 1px solid #d4a72c; color: #6a4a00; }
.banner.fault { background: #ffebe9; border: 1px solid #cf222e; color: #82071e; }
.banner.warning { background: #fff1e5; border: 1px solid #bc4c00; color: #762c00; }
.banner.note { background: #f6f8fa; border: 1px solid #d0d7de; color: #24292f; font-weight: 400; }
.banner ul { margin: 4px 0 0; padding-left: 20px; font-weight: 400; }
.errors { white-space: pre-wrap; background: #ffebe9; border: 1px solid #ff8182; padding: 8px; border-radius: 6px; }
dl.assumptions { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 16px; margin: 0; }
dl.assumptions dt { font-weight: 600; }
dl.assumptions dd { margin: 0; min-width: 0; }
dl.assumptions dd code { overflow-wrap: anywhere; }
.muted { color: #59636e; }
.chart-figure { margin: 0; }
.chart { width: 100%; margin: 4px 0 12px; }
.chart[data-chart="price"] { height: 320px; }
.chart[data-chart="equity"] { height: 240px; }
.chart[data-chart="drawdown"] { height: 180px; }
.chart-title { font-size: 14px; font-weight: 600; margin: 8px 0 0; }
.chart-help { font-size: 12px; margin: 2px 0 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 10px; border-bottom: 1px solid #eaeef2; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
thead th { position: sticky; top: 0; }
td.num { text-align: right; white-space: nowrap; }
td.pos { color: #1a7f37; }
td.neg { color: #cf222e; }
.stats td.def { color: #59636e; font-size: 12px; }
.syms tr.total th, .syms tr.total td { font-weight: 600; border-top: 2px solid #d0d7de; }
.syms td.why { white-space: normal; }
.two-col { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0 32px; }
table.trades { font-size: 12px; }
table.trades th, table.trades td { padding: 3px 6px; }
table.activity { font-size: 12px; }
table.activity td { white-space: nowrap; }
table.activity td.reason { white-space: normal; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: #f6f8fa; padding: 1px 4px; border-radius: 4px; }
@media print {
  body { padding: 0; font-size: 11px; }
  thead th { position: static; }
  .chart-figure { break-inside: avoid; }
  .chart-help { display: none; }
  .chart { max-width: 100%; }
  table.trades, table.activity { width: 100%; font-size: 9px; }
  table.trades th, table.trades td, table.activity th, table.activity td { padding: 2px 4px; white-space: normal; overflow-wrap: anywhere; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
}
`;
