import { afterEach, describe, expect, it } from 'vitest';
import { type PaperVenue, startPaperVenue } from '../../../backtest/paper-venue/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { specFromSymInfo, venueInstrumentSpecs } from '../../../config/compose/venue-instruments.ts';
import { D } from '../../../core/model/index.ts';
import { hmacSigner, VenueRestClient } from '../../../core/venue/index.ts';

let venue: PaperVenue | undefined;
let rest: VenueRestClient | undefined;
afterEach(async () => {
  await rest?.close();
  await venue?.close();
  venue = undefined;
  rest = undefined;
});

describe('instrument specs of a live run', () => {
  it("come from the venue's symbol info, with the config's overrides on top", async () => {
    venue = await startPaperVenue({ instruments: [SYNTHETIC_BTC_PERP] });
    rest = new VenueRestClient({ baseUrl: venue.restUrl, signer: hmacSigner(venue.apiKey, venue.apiSecret) });
    const [spec] = await venueInstrumentSpecs(rest, [
      { sym: SYNTHETIC_BTC_PERP.sym, overrides: { maxNumOrders: 7, takerFee: D('0.001') } },
    ]);
    expect(spec?.tickSize.toFixed()).toBe(SYNTHETIC_BTC_PERP.tickSize.toFixed());
    expect(spec?.lotSize.toFixed()).toBe(SYNTHETIC_BTC_PERP.lotSize.toFixed());
    expect(spec?.maxNumOrders).toBe(7);
    expect(spec?.fees.taker.toFixed()).toBe('0.001');
    expect(spec?.settleAsset).toBe('USDT');
  });

  it('refuses a sym the venue does not list, naming it', async () => {
    venue = await startPaperVenue({ instruments: [SYNTHETIC_BTC_PERP] });
    rest = new VenueRestClient({ baseUrl: venue.restUrl, signer: hmacSigner(venue.apiKey, venue.apiSecret) });
    await expect(venueInstrumentSpecs(rest, [{ sym: 'OKX_SPOT_SOL_USDT', overrides: {} }])).rejects.toThrow(
      /does not list instrument OKX_SPOT_SOL_USDT/,
    );
  });

  it('settles an unknown crypto sym in its quote asset with zero fees until overridden', () => {
    const spec = specFromSymInfo({
      sym: 'OKX_SPOT_SOL_USDC',
      state: 'TRADING',
      pricePrecision: 3,
      qtyPrecision: 2,
      tickSize: '0.001',
      lotSize: '0.01',
    });
    expect(spec.settleAsset).toBe('USDC');
    expect(spec.minSize.toFixed()).toBe('0.01');
    expect(spec.fees.maker.isZero() && spec.fees.taker.isZero()).toBe(true);
  });
});
