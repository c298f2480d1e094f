import { describe, expect, it } from 'vitest';
import { D } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { eventually, livePaperRigs } from '../../../kit/live-paper-rig.ts';
import { aPaperVenue, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';
import { signedRest } from '../../../kit/paper-venue-client.ts';

const rigOn = livePaperRigs();

// The reviewer's finding: the paper venue always listed assets in the account reply, the public
// notes list none there, and the live adapter read a missing list as "no balances", so a strategy
// sizing sells by ctx.balance read 0 live where it read the balance on paper.
describe('live execution client: an account reply without assets', () => {
  it('warns once that balances are unknown until pushed, zeroes none, and takes them from the Assets pushes', async () => {
    const venue = await withFirstQuotes(await aPaperVenue({ accountAssets: false }));
    const account = await signedRest(venue, 'GET', '/api/v1/trading/account', {});
    expect(account.body.data).not.toHaveProperty('assets');
    expect(account.body.data).toHaveProperty('equity');

    const rig = await rigOn(venue);
    expect(rig.events.filter((e) => e.kind === 'asset')).toEqual([]);
    await rig.live.snapshot();
    expect(rig.live.reconciliationWarnings).toEqual([
      "The venue's account reply lists no assets (balances): Keel knows a coin's balance only once the venue pushes it on the Assets channel, which it does when the balance changes; until then ctx.asset(coin) is undefined and ctx.balance(coin) reads 0.",
    ]);

    rig.live.submit(
      approved({ kind: 'borrow', ref: 'b-1', exchange: 'BINANCE', coin: 'USDT', amount: D('250') }),
    );
    await eventually(
      () =>
        rig.events.some((e) => e.kind === 'asset' && e.asset.coin === 'USDT' && e.asset.balance.eq(100_250)),
      'the USDT balance pushed after the borrow',
    );
  });

  it('lists the assets in the account reply by default', async () => {
    const venue = await aPaperVenue();
    const rig = await rigOn(venue);
    expect(rig.events.some((e) => e.kind === 'asset' && e.asset.coin === 'USDT')).toBe(true);
    expect(rig.live.reconciliationWarnings).toEqual([]);
  });
});
