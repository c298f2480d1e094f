import { describe, expect, it } from 'vitest';
import { DataDirReplayError } from '../../../backtest/paper-venue/index.ts';
import { SYNTHETIC_AAPL } from '../../../backtest/synthetic/index.ts';
import { D, KEEL_VERSION } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const opened = closedAfterEachTest();
const aDataDir = tempDirsRemovedAfterEach('keel-replay-settings-');
const BTC = 'BINANCE_PERP_BTC_USDT';

describe('a data dir restarted by the same Keel with a venue setting changed', () => {
  it('is refused naming the changed settings or feed and what to do, not an older Keel', async () => {
    const dataDir = aDataDir();
    const first = await withFirstQuotes(await aPaperVenue({ dataDir }));
    opened.venue = first;
    const placed = await signedRest(first, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '1',
      clientOrderId: 'm1',
    });
    expect(placed.body.code).toBe(0);
    await first.close();
    opened.venue = undefined;
    // Same Keel; the operator raised the taker fee for the sessions to come.
    const dearer = anInstrument(BTC, {
      minNotional: D('1'),
      fees: { maker: D('0.0002'), taker: D('0.001'), markup: D('0'), fixedPerFill: D('0') },
    });
    const refusal = await aPaperVenue({ dataDir, instruments: [dearer, SYNTHETIC_AAPL] }).then(
      (venue) => {
        opened.venue = venue;
        return undefined;
      },
      (error: Error) => error,
    );
    expect(refusal).toBeInstanceOf(DataDirReplayError);
    const message = refusal?.message ?? '';
    expect(message).toContain('clientOrderId m1');
    expect(message).toContain(
      "the venue's settings (instruments and their fees, fill model, portfolios and their starting balances, loans) or its feed differ from the ones the journal ran with",
    );
    expect(message).toContain(
      'start it with the settings and feed this data dir ran with, or on a new data dir',
    );
    expect(message).not.toMatch(/Keel version that wrote|a Keel before/);
    expect(message.split(KEEL_VERSION).length - 1).toBe(1);
  });
});
