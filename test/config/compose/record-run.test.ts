import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { listFeed, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { readRecords } from '../../../backtest/recording/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { recordMarketData } from '../../../config/compose/record-run.ts';
import { DOWN_AT_STOP_REASON } from '../../../config/compose/session-recorder.ts';
import { parseConfigText } from '../../../config/loader/index.ts';
import { decodeSessionRecord } from '../../../config/session-decoder.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { MarketDataClient } from '../../../core/venue/index.ts';
import { aFreePort } from '../../kit/free-port.ts';
import { startFreezableTcpProxy } from '../../kit/freezable-tcp-proxy.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush } from '../../kit/paper-venue-client.ts';
import { quotingBacktestOptions } from '../../kit/quoting-backtest-options.ts';
import { tempDir } from '../../kit/recording-files.ts';

const opened = closedAfterEachTest();

describe('keel record (live mode) against `keel venue` serving a SYNTHETIC feed', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  /** Runs `keel record` of a live config named `name` against the venue. */
  function recordFrom(
    venue: PaperVenue,
    name: string,
    options: Parameters<typeof recordMarketData>[1],
    extra = '',
    marketDataQuery = '',
    instruments: readonly string[] = ['BINANCE_PERP_BTC_USDT'],
  ) {
    const yaml = `mode: live
name: rec
venue:
  restUrl: ${venue.restUrl}
  marketDataWsUrl: ${venue.marketDataWsUrl}${marketDataQuery}
  apiKey: \${KEY}
  apiSecret: \${SECRET}
instruments:
${instruments.map((sym) => `  - ${sym}`).join('\n')}
strategies:
  - id: mm
    use: market-maker
    params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.001, halfSpreadTicks: 20, maxPosition: 0.01 }
logging:
  level: silent
${extra}`;
    const file = join(temp.dir, `${name}.yaml`);
    const parsed = parseConfigText(yaml, {
      file,
      env: { KEY: 'keel-paper-key', SECRET: 'keel-paper-secret' },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed));
    return recordMarketData(
      { config: parsed.config, file, dir: temp.dir, source: parsed.source } as never,
      options,
    );
  }

  it('labels the recording synthetic, as `keel run` against the same venue does (system status syntheticFeed)', async () => {
    opened.venue = await aPaperVenue({ syntheticFeed: true });
    const venue = opened.venue;
    const out = join(temp.dir, 'rec.jsonl');
    await recordFrom(venue, 'rec', { out, durationSec: 0.3, handleSignals: false });
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] as string);
    expect(header.synthetic).toBe(true);
  });

  it('keeps a token in the market-data URL out of the recording header, which names the venue', async () => {
    opened.venue = await aPaperVenue();
    const out = join(temp.dir, 'token.jsonl');
    await recordFrom(
      opened.venue,
      'token',
      { out, durationSec: 0.3, handleSignals: false },
      '',
      '?token=MDTOKEN_5555',
    );
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] as string);
    expect(header.venue).toBe(`${opened.venue.marketDataWsUrl}?token=[redacted]`);
  });

  // It stamped frames with this machine's clock: against `keel venue --speed 5` the data ran 257 s
  // ahead of the receive times, and a backtest of the recording ran on the wrong time line.
  it("stamps the frames with the venue's time as a live session estimates it, not this machine's", async () => {
    // Quotes every 100 ms from T0 (months before this machine's time), replayed at 5x.
    const quotes = Array.from({ length: 200 }, (_, i) =>
      bboPush('BINANCE_PERP_BTC_USDT', '100.0', '100.1', T0 + i * 100),
    );
    opened.venue = await aPaperVenue({ feed: listFeed(quotes), pacing: { mode: 'realtime', speed: 5 } });
    const out = join(temp.dir, 'venue-time.jsonl');
    await recordFrom(opened.venue, 'venue-time', { out, durationSec: 1.5, handleSignals: false });
    const records = [];
    for await (const record of readRecords(out)) records.push(record);
    const quoted = records.flatMap((r) => {
      const ts = (r.msg as { data?: { ts?: number } }).data?.ts;
      return r.source === 'market-data' && ts !== undefined ? [{ recvTs: r.recvTs, ts }] : [];
    });
    expect(quoted.length).toBeGreaterThan(0);
    // The Date header's second, at 5x, and the frame's way from the venue.
    for (const { recvTs, ts } of quoted) expect(Math.abs(recvTs - ts)).toBeLessThan(6_000);
  }, 20_000);

  // It took the specs from Keel's built-in ones, as a paper run does: a sym without one was refused.
  it('records an instrument Keel has no built-in spec for, the venue listing it, as `keel run` takes it', async () => {
    opened.venue = await aPaperVenue({
      instruments: [anInstrument('BINANCE_PERP_BTC_USDT'), anInstrument('OKX_SPOT_XRP_USDT')],
    });
    const out = join(temp.dir, 'unlisted-spec.jsonl');
    await recordFrom(opened.venue, 'unlisted-spec', { out, durationSec: 0.3, handleSignals: false }, '', '', [
      'BINANCE_PERP_BTC_USDT',
      'OKX_SPOT_XRP_USDT',
    ]);
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] as string);
    expect(header.symbols).toEqual(['BINANCE_PERP_BTC_USDT', 'OKX_SPOT_XRP_USDT']);
  }, 20_000);

  it('refuses a sym the venue does not list, naming it', async () => {
    opened.venue = await aPaperVenue();
    const out = join(temp.dir, 'unlisted.jsonl');
    await expect(
      recordFrom(opened.venue, 'unlisted', { out, durationSec: 0.3, handleSignals: false }, '', '', [
        'OKX_SPOT_XRP_USDT',
      ]),
    ).rejects.toThrow('the venue does not list instrument OKX_SPOT_XRP_USDT');
  }, 20_000);

  it('writes a gap record when the market-data connection drops and comes back, and a backtest of the file warns of it', async () => {
    opened.venue = await aPaperVenue();
    const venue = opened.venue;
    const out = join(temp.dir, 'gap.jsonl');
    const recording = recordFrom(venue, 'gap', { out, durationSec: 4, handleSignals: false });
    await sleep(700);
    venue.feed.step(1);
    await sleep(300);
    const dropAt = Date.now();
    venue.faults.dropConnections('market-data');
    // The client reconnects after about 0.5 s; the recorder writes at least every second.
    for (let i = 0; i < 60 && !readFileSync(out, 'utf8').includes('keelGap'); i++) await sleep(50);
    venue.feed.step(3);
    await recording;
    const records = [];
    for await (const record of readRecords(out)) records.push(record);
    const gaps = records.filter((r) => (r.msg as { keelGap?: unknown }).keelGap !== undefined);
    expect(gaps).toHaveLength(1);
    const gap = decodeSessionRecord(gaps[0] as never) as MarketEvent;
    expect(gap).toMatchObject({ kind: 'gap', sym: 'BINANCE_PERP_BTC_USDT', recvTs: gaps[0]?.recvTs });
    if (gap.kind !== 'gap') throw new Error('not a gap');
    // From the last frame before the drop to the reconnect, on the recorder's clock.
    expect(gap.fromTs).toBeLessThanOrEqual(dropAt);
    expect(gap.ts).toBeGreaterThan(dropAt);
    expect(gap.ts).toBe(gaps[0]?.recvTs);
    const decode = (r: Parameters<typeof decodeSessionRecord>[0]) =>
      decodeSessionRecord(r) as MarketEvent | null | Error;
    const result = await runBacktest(quotingBacktestOptions(out, decode));
    expect(result.meta.warnings).toContainEqual(
      expect.stringMatching(
        /^recording .*gap\.jsonl: market data was missed 1 time while it was recorded \(market-data WebSocket reconnected: .*\), for BINANCE_PERP_BTC_USDT from .* to .* \([\d.]+ s\); the run replayed the hole as a market without events$/,
      ),
    );
  }, 20_000);

  // The client writes gaps on its reconnect only: a stream still down at the stop left no gap and no warning.
  it('writes a gap per sym when the market stream is still down at the stop, warns, and its backtest warns too', async () => {
    opened.venue = await aPaperVenue();
    const venue = opened.venue;
    const proxy = await startFreezableTcpProxy(Number(new URL(venue.marketDataWsUrl).port));
    const viaProxy = new URL(venue.marketDataWsUrl);
    viaProxy.port = String(proxy.port);
    const out = join(temp.dir, 'down-at-stop.jsonl');
    const recording = recordFrom(
      { restUrl: venue.restUrl, marketDataWsUrl: viaProxy.toString() } as PaperVenue,
      'down-at-stop',
      { out, durationSec: 2.5, handleSignals: false },
    );
    await sleep(700);
    venue.feed.step(1);
    await sleep(300);
    // Every connection cut, and none taken any more: the stream stays down until the stop.
    await proxy.close();
    const outcome = await recording;
    expect(outcome.warnings).toEqual([
      expect.stringMatching(
        /^market data down from .* until the stop at .*down-at-stop\.jsonl holds a gap record/,
      ),
    ]);
    const gaps = [];
    for await (const record of readRecords(out)) {
      const gap = (record.msg as { keelGap?: { sym: string; reason: string } }).keelGap;
      if (gap !== undefined) gaps.push(gap);
    }
    expect(gaps).toEqual([
      expect.objectContaining({ sym: 'BINANCE_PERP_BTC_USDT', reason: DOWN_AT_STOP_REASON }),
    ]);
    const decode = (r: Parameters<typeof decodeSessionRecord>[0]) =>
      decodeSessionRecord(r) as MarketEvent | null | Error;
    const result = await runBacktest(quotingBacktestOptions(out, decode));
    expect(result.meta.warnings).toContainEqual(
      expect.stringMatching(
        /down-at-stop\.jsonl: market data was missed .*still down when the recording stopped/,
      ),
    );
  }, 20_000);

  it('stops with the failure, naming the file, when the recording cannot be written (a full disk)', async () => {
    opened.venue = await aPaperVenue();
    const venue = opened.venue;
    const out = join(temp.dir, 'full.jsonl');
    const recording = recordFrom(venue, 'full', { out, durationSec: 15, handleSignals: false });
    await sleep(700);
    // Room for 10 more bytes only: a file-size limit fails write(2) as a full disk does.
    execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${statSync(out).size + 10}:unlimited`]);
    try {
      venue.feed.step(3);
      const outcome = await recording;
      expect(outcome.stoppedBy).toBe('write-failed');
      expect(outcome.failure).toMatch(/^cannot write the recording .*full\.jsonl \(EFBIG/);
      // It said "the session goes on unrecorded", and counted the frames buffered, not those written.
      expect(outcome.failure).toMatch(/: it stops here, keel record stops$/);
      let written = 0;
      for await (const record of readRecords(out)) if (record.source === 'market-data') written++;
      expect(outcome.frames).toBe(written);
    } finally {
      execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=unlimited:unlimited']);
    }
  }, 20_000);

  it("serves the market socket's connection, reconnects and inbound counts on /metrics when metrics.enabled", async () => {
    opened.venue = await aPaperVenue();
    const venue = opened.venue;
    const port = await aFreePort();
    const out = join(temp.dir, 'metrics.jsonl');
    const recording = recordFrom(
      venue,
      'metrics',
      { out, durationSec: 3, handleSignals: false },
      `metrics: { enabled: true, port: ${port} }\n`,
    );
    const scrape = () =>
      fetch(`http://127.0.0.1:${port}/metrics`).then(
        (r) => r.text(),
        () => '',
      );
    let text = '';
    for (let i = 0; i < 40 && !text.includes('keel_venue_connected{stream="market"} 1'); i++) {
      await sleep(50);
      text = await scrape();
    }
    venue.feed.step(1);
    venue.faults.dropConnections('market-data');
    for (let i = 0; i < 60 && !text.includes('keel_venue_reconnects_total{stream="market"} 1'); i++) {
      await sleep(50);
      text = await scrape();
    }
    await recording;
    expect(text).toContain('keel_venue_reconnects_total{stream="market"} 1');
    expect(text).toMatch(/keel_venue_inbound_total\{source="market",outcome="frames"\} [1-9]/);
    expect(text).toContain('keel_venue_inbound_total{source="market",outcome="malformed"} 0');
    // A recorder trades nothing: no session metric reads a misleading 0.
    expect(text).not.toContain('keel_venue_reconciled');
    expect(text).not.toContain('keel_fills_total');
    // The endpoint closes with the recording.
    expect(await scrape()).toBe('');
  }, 20_000);

  describe('its /readyz probe', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    // It read the market stream only: a recorder closing its connection and file answered 200 ready.
    it('fails from the moment it stops, while its connection is still up', async () => {
      opened.venue = await aPaperVenue();
      const port = await aFreePort();
      const readyz = async () => {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`);
        return `${response.status} ${await response.text()}`;
      };
      const atClose: string[] = [];
      const close = MarketDataClient.prototype.close;
      vi.spyOn(MarketDataClient.prototype, 'close').mockImplementation(async function (
        this: MarketDataClient,
      ) {
        atClose.push(await readyz());
        return close.call(this);
      });
      await recordFrom(
        opened.venue,
        'readyz',
        { out: join(temp.dir, 'readyz.jsonl'), durationSec: 1, handleSignals: false },
        `metrics: { enabled: true, port: ${port} }\n`,
      );
      expect(atClose).toEqual(['503 not ready: keel record is stopping (its duration is over)\n']);
    }, 20_000);

    // It said only "keel record is stopping": nothing told the orchestrator the start-up had failed, nor why.
    it('fails naming what did not start, and why, while it closes what it opened', async () => {
      opened.venue = await aPaperVenue();
      const port = await aFreePort();
      const atClose: string[] = [];
      const close = MarketDataClient.prototype.close;
      vi.spyOn(MarketDataClient.prototype, 'connect').mockRejectedValue(new Error('connection refused'));
      vi.spyOn(MarketDataClient.prototype, 'close').mockImplementation(async function (
        this: MarketDataClient,
      ) {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`);
        atClose.push(`${response.status} ${await response.text()}`);
        return close.call(this);
      });
      const run = recordFrom(
        opened.venue,
        'readyz-failed',
        { out: join(temp.dir, 'readyz-failed.jsonl'), durationSec: 60, handleSignals: false },
        `metrics: { enabled: true, port: ${port} }\n`,
      );
      await expect(run).rejects.toThrow('connection refused');
      expect(atClose).toEqual([
        `503 not ready: keel record failed to start: cannot connect to the market data stream at ${opened.venue.marketDataWsUrl} (connection refused); the market stream has not connected yet\n`,
      ]);
    }, 20_000);
  });
});
