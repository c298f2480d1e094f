import type { VenueSnapshot } from '../../execution/index.ts';
import { orderFromWire } from '../mapping/order-mapping.ts';
import {
  accountFromWire,
  algoOrderFromWire,
  assetFromWire,
  positionFromWire,
} from '../mapping/user-data-mapping.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';

/**
 * What the venue holds now, over REST: open orders, open algo orders, non-zero positions, assets
 * and the account (executions are fetched separately, see `missed-executions.ts`).
 * @param rest - the REST client
 * @param now - the client's clock, read once every reply is in (the snapshot time)
 * @returns the snapshot
 * @throws whatever the REST client throws
 */
export async function venueSnapshot(rest: VenueRestClient, now: () => number): Promise<VenueSnapshot> {
  const [orders, algoOrders, positions, account] = await Promise.all([
    rest.getOpenOrders(),
    rest.getOpenAlgoOrders(),
    rest.getPositions({ ignoreZero: true }),
    rest.getTradingAccount(),
  ]);
  return {
    ts: now(),
    openOrders: orders.map(orderFromWire),
    openAlgoOrders: algoOrders.map(algoOrderFromWire),
    positions: positions.map(positionFromWire),
    assets: (account.assets ?? []).map(assetFromWire),
    account: accountFromWire(account),
  };
}
