import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { embeddedPaperVenues } from '../../kit/embedded-paper-runs.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { bboPush } from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = Date.UTC(2025, 2, 3);
const embedded = embeddedPaperVenues();
const tempDir = tempDirsRemovedAfterEach('keel-paper-bars-');

/** 1m bars rising 0.5 % a bar, each reaching 1.5 % over its open: a 1 % take-profit fires on the bar after an entry. */
const RISING = Array.from({ length: 30 }, (_, i) => {
  const open = 100 * 1.005 ** i;
  return [open, open * 1.015, open * 0.999, open * 1.005].map((p) => Number(p.toFixed(1)));
});

const STRATEGY = `instruments: [${BTC}]
strategies:
  - id: br
    use: bracket
    params: { sym: ${BTC}, qty: 1, trendBars: 2, takeProfit: 0.01, stopLoss: 0.02, exits: attached }
`;

describe('a paper run on a recording of bars only (keel import-csv) without paper.fillModel', () => {
  it('matches on the bar model, as a backtest of that recording defaults to', async () => {
    const dir = tempDir();
    const bars = await barsRecordingIn(dir, RISING.slice(0, 5), T0, BTC);
    const started = await embedded(
      `mode: paper\ninstruments: [${BTC}]\nstrategies:\n  - { id: mm, use: market-maker }\npaper:\n  lockstep: true\n  source: { kind: recording, path: ${bars} }\n`,
    );
    expect(started.fillModel.name).toBe('bar');
    expect(started.defaultedFillModel).toBe('bar');
    expect(started.firstEventTime).toBeGreaterThanOrEqual(T0);
  });

  it('fires the attached take-profits the backtest fires, with the same fills', async () => {
    const dir = tempDir();
    const bars = await barsRecordingIn(dir, RISING, T0, BTC);
    type Result = {
      fills: { clientOrderId: string; side: string; price: string; timestamp: number }[];
      meta: { fillModel: { name: string } };
    };
    const { paper, backtest } = await paperAndBacktestResults<Result>(dir, STRATEGY, bars);
    expect(paper.meta.fillModel.name).toBe('bar');
    const sells = paper.fills.filter((f) => f.side === 'SELL');
    expect(sells.length).toBeGreaterThan(1);
    const lines = (r: Result) => r.fills.map((f) => `${f.side} @ ${f.price} t=${f.timestamp}`);
    expect(lines(paper)).toEqual(lines(backtest));
  }, 60_000);

  it('warns in the result and on the console, as a backtest does, when it chose queue and an ordered sym had bars only', async () => {
    const dir = tempDir();
    const bars = await barsRecordingIn(dir, RISING.slice(0, 8), T0, BTC);
    // An ETH quote first: the source begins with something to trade against, so queue is chosen.
    const [header, ...rest] = readFileSync(bars, 'utf8').trimEnd().split('\n');
    const quote = bboPush(ETH, '3000.0', '3000.1', T0 + 1);
    const first = JSON.stringify({ recvTs: quote.recvTs, source: 'market-data', msg: quote.msg });
    writeFileSync(bars, `${[header, first, ...rest].join('\n')}\n`);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\n${STRATEGY.replace(`[${BTC}]`, `[${BTC}, ${ETH}]`)}paper:\n  lockstep: true\n  speed: 1000000\n  source: { kind: recording, path: ${bars} }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\n`,
    );
    const run = await keelInProcess(['run', 'paper.yaml'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'out/paper.json'), 'utf8')) as {
      meta: { warnings: string[]; fillModel: { name: string } };
    };
    expect(result.meta.fillModel.name).toBe('queue');
    const warning = result.meta.warnings.find((w) => w.includes('chose the queue fill model'));
    expect(warning).toContain(`but ${BTC} had bars only`);
    expect(warning).toContain('set paper.fillModel: bar');
    expect(run.stdout).toContain('set paper.fillModel: bar');
  }, 60_000);

  it('warns, as a backtest does, when paper.fillModel set queue and the ordered sym had bars only', async () => {
    const dir = tempDir();
    const bars = await barsRecordingIn(dir, RISING.slice(0, 8), T0, BTC);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\n${STRATEGY}paper:\n  lockstep: true\n  speed: 1000000\n  fillModel: queue\n  source: { kind: recording, path: ${bars} }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\n`,
    );
    const run = await keelInProcess(['run', 'paper.yaml'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'out/paper.json'), 'utf8')) as {
      meta: { warnings: string[]; fillModel: { name: string } };
    };
    expect(result.meta.fillModel.name).toBe('queue');
    expect(result.meta.warnings).toContainEqual(
      `paper.fillModel is queue, which matches resting orders against quotes, trades and books, but ${BTC} had bars only: a limit there never fills and a market order takes the last close; set paper.fillModel: bar`,
    );
  }, 60_000);
});
