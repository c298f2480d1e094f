import type { VenueSnapshot } from '../../execution/index.ts';
import { listedOrderFromWire } from '../mapping/order-mapping.ts';
import {
  accountFromWire,
  algoOrderFromWire,
  assetFromWire,
  positionFromWire,
} from '../mapping/user-data-mapping.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import { readLoans } from './loan-events.ts';

/**
 * What the venue holds now, over REST: open orders, open algo orders, non-zero positions, assets,
 * the account and outstanding margin loans (executions are fetched separately, see
 * `missed-executions.ts`).
 * The loans are secondary: when only they cannot be read (an account without margin loans may be
 * refused the loan info), the snapshot leaves them out, so Keel keeps its own, rather than hold
 * trading back until they can be read.
 * @param rest - the REST client
 * @param now - the venue's time, read once every reply is in (the snapshot time): the
 *   corrections are stamped with it, so they sort among the venue's own updates
 * @param loansUnread - told why the loans could not be read
 * @param assetsUnlisted - told when the account reply holds no assets (the public notes' account
 *   fields list none): the snapshot then leaves the assets out, so Keel keeps the balances the
 *   venue's Assets pushes gave it instead of zeroing them; no other endpoint the spec or the
 *   notes show gives a coin's balance (`getAccountCurrencyInfo`'s withdrawAvailable is what can
 *   leave the account, not the balance)
 * @returns the snapshot
 * @throws whatever the REST client throws for the orders, algo orders, positions or account
 */
export async function venueSnapshot(
  rest: VenueRestClient,
  now: () => number,
  loansUnread: (error: unknown) => void,
  assetsUnlisted: () => void,
): Promise<VenueSnapshot> {
  const [orders, algoOrders, positions, account, loans] = await Promise.all([
    rest.getOpenOrders(),
    rest.getOpenAlgoOrders(),
    rest.getPositions({ ignoreZero: true }),
    rest.getTradingAccount(),
    readLoans(rest, 0).catch((error: unknown) => {
      loansUnread(error);
      return undefined;
    }),
  ]);
  const ts = now();
  if (account.assets === undefined) assetsUnlisted();
  return {
    ts,
    openOrders: orders.map(listedOrderFromWire),
    openAlgoOrders: algoOrders.map(algoOrderFromWire),
    positions: positions.map(positionFromWire),
    ...(account.assets === undefined ? {} : { assets: account.assets.map(assetFromWire) }),
    account: accountFromWire(account),
    ...(loans === undefined ? {} : { loans: loans.map((loan) => ({ ...loan, updateAt: ts })) }),
  };
}
