import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../../../backtest/recording/index.ts';
import { recordCommand } from '../../../../config/cli/commands/record-command.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { startFreezableTcpProxy } from '../../../kit/freezable-tcp-proxy.ts';
import { aPaperVenue, closedAfterEachTest } from '../../../kit/paper-venue-builders.ts';
import { recordConfig } from '../../../kit/record-config.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const opened = closedAfterEachTest();
const aDir = tempDirsRemovedAfterEach('keel-record-down-at-stop-');

describe('keel record stopping while its market stream is down', () => {
  // Nothing said the stream was down at the stop; the count was read before the recording closed.
  it('warns that market data was down until the stop, and counts the frames the file holds', async () => {
    opened.venue = await aPaperVenue();
    const venue = opened.venue;
    const proxy = await startFreezableTcpProxy(Number(new URL(venue.marketDataWsUrl).port));
    const viaProxy = new URL(venue.marketDataWsUrl);
    viaProxy.port = String(proxy.port);
    const dir = aDir();
    const out = join(dir, 'market.jsonl');
    const file = join(dir, 'rec.yaml');
    const parsed = recordConfig({ restUrl: venue.restUrl, marketDataWsUrl: viaProxy.toString() }, file);
    let stdout = '';
    let stderr = '';
    const code = recordCommand(
      { config: parsed.config, file, dir, source: parsed.source } as never,
      { out, durationSec: 2 },
      {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
      } as never,
    );
    await sleep(700);
    venue.feed.step(1);
    await sleep(300);
    // Every connection cut, and none taken any more: the stream stays down until the stop.
    await proxy.close();
    expect(await code).toBe(EXIT.OK);
    expect(stderr).toMatch(/^⚠ market data down from .* until the stop at .*\n$/);
    let frames = 0;
    for await (const record of readRecords(out)) {
      if (record.source === 'market-data' && !('keelGap' in (record.msg as object))) frames++;
    }
    expect(stdout).toBe(`✔ ${frames} market-data frames recorded to ${out}\n`);
  }, 20_000);
});
