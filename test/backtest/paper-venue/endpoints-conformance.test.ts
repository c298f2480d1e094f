import { describe, expect, it } from 'vitest';
import { type PaperVenue, REST_ROUTES } from '../../../backtest/paper-venue/index.ts';
import { ENDPOINTS, type EndpointName } from '../../../core/venue/index.ts';
import {
  aMainAndSubVenue,
  aPaperVenue,
  closedAfterEachTest,
  withFirstQuotes,
} from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

/** Parameters that make each endpoint succeed on a fresh venue with one resting order and one algo order. */
const HAPPY: Partial<Record<EndpointName, Record<string, unknown>>> = {
  placeOrder: {
    sym: BTC,
    side: 'BUY',
    orderType: 'LIMIT',
    orderQty: '1',
    limitPrice: '90.0',
    clientOrderId: 'e-2',
  },
  replaceOrder: { clientOrderId: 'e-1', limitPrice: '91.0' },
  cancelOrder: { clientOrderId: 'e-1' },
  getOrder: { clientOrderId: 'e-1' },
  setSubFeeRate: { subPortfolioId: 'PAPER-SUB', markup: '0.25' },
  getSubPortfolioFeeRate: { subPortfolioId: 'PAPER-SUB' },
  placeAlgoOrder: {
    sym: BTC,
    side: 'SELL',
    algoOrderType: 'TRIGGER',
    conditionType: 'LTE',
    triggerType: 'LastPrice',
    triggerPrice: '80.0',
    price: '0',
    qty: '1',
    clientAlgoOrderId: 'a-2',
  },
  replaceAlgoOrder: { clientAlgoOrderId: 'a-1', triggerPrice: '79.0' },
  cancelAlgoOrder: { clientAlgoOrderId: 'a-1' },
  getAlgoOrder: { clientAlgoOrderId: 'a-1' },
  getLoanPool: { exchange: 'BINANCE', asset: 'USDT' },
  marginBorrow: { exchange: 'BINANCE', coin: 'USDT', amount: '100' },
};

/** Endpoints that need state the fresh venue does not have: their refusal code instead of 0. */
const REFUSED: Partial<Record<EndpointName, number>> = {
  setPositionMode: 406012,
  closePosition: 401097,
  closePositions: 401097,
  getLiquidationEvent: 400001,
  marginRepay: 406022,
};
const REFUSED_PARAMS: Partial<Record<EndpointName, Record<string, unknown>>> = {
  setPositionMode: { positionMode: 'BOTH' },
  closePosition: { sym: BTC },
  closePositions: { symList: [BTC] },
  getLiquidationEvent: { liquidationEventId: 'none' },
  marginRepay: { exchange: 'BINANCE', coin: 'USDT', amount: '1' },
};

function live(): PaperVenue {
  if (!opened.venue) throw new Error('the test started no venue');
  return opened.venue;
}

async function freshVenue(): Promise<void> {
  opened.venue = (await aMainAndSubVenue({ usdt: 10_000 })).venue;
  await withFirstQuotes(opened.venue);
  await signedRest(live(), 'POST', '/api/v1/trading/order', { ...HAPPY.placeOrder, clientOrderId: 'e-1' });
  await signedRest(live(), 'POST', '/api/v1/algo/order', {
    ...HAPPY.placeAlgoOrder,
    clientAlgoOrderId: 'a-1',
  });
}

describe('paper venue endpoints', () => {
  it('routes every REST endpoint of the spec (and cancel / cancel all of the public docs)', () => {
    const missing = (Object.keys(ENDPOINTS) as EndpointName[]).filter(
      (name) => REST_ROUTES[name] === undefined,
    );
    expect(missing).toEqual([]);
  });

  it('answers every endpoint with the spec envelope {code: 0, message: "success", data}', async () => {
    await freshVenue();
    const failures: string[] = [];
    for (const [name, def] of Object.entries(ENDPOINTS) as [
      EndpointName,
      (typeof ENDPOINTS)[EndpointName],
    ][]) {
      if (name in REFUSED) continue;
      const reply = await signedRest(live(), def.method, def.path, HAPPY[name] ?? {});
      if (
        reply.status !== 200 ||
        reply.body.code !== 0 ||
        reply.body.message !== 'success' ||
        !('data' in reply.body)
      ) {
        failures.push(`${name}: ${reply.status} ${JSON.stringify(reply.body)}`);
        continue;
      }
      const decoded = def.reply.safeParse(reply.body.data);
      if (!decoded.success)
        failures.push(`${name} data does not match the wire schema: ${decoded.error.message}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers endpoints that need missing state with their error envelope', async () => {
    await freshVenue();
    for (const [name, code] of Object.entries(REFUSED) as [EndpointName, number][]) {
      const def = ENDPOINTS[name];
      const reply = await signedRest(live(), def.method, def.path, REFUSED_PARAMS[name] ?? {});
      expect({ name, code: reply.body.code, data: reply.body.data }).toEqual({ name, code, data: null });
      expect(reply.body.message.length).toBeGreaterThan(5);
    }
  });
});

describe('paper venue authentication', () => {
  it('refuses a bad signature with 2000, an unknown key with 2002 and a nonce outside ±60 s with 7000', async () => {
    // A still clock: a request that takes a while on a loaded machine cannot carry a nonce across.
    const now = 5_000_000_000;
    opened.venue = await aPaperVenue({ timer: { now: () => now * 1000, setTimer: () => () => undefined } });
    const path = '/api/v1/trading/account';
    const at = { nonceSeconds: now };
    expect((await signedRest(live(), 'GET', path, {}, { ...at, secret: 'wrong' })).body.code).toBe(2000);
    expect((await signedRest(live(), 'GET', path, {}, { ...at, apiKey: 'who' })).body.code).toBe(2002);
    expect((await signedRest(live(), 'GET', path, {}, { nonceSeconds: now - 61 })).body.code).toBe(7000);
    expect((await signedRest(live(), 'GET', path, {}, { nonceSeconds: now + 61 })).body.code).toBe(7000);
    expect((await signedRest(live(), 'GET', path, {}, { nonceSeconds: now - 50 })).body.code).toBe(0);
  });

  it('refuses with 2000 a signature with one hex digit more than the right one, which decodes to the same bytes', async () => {
    const now = 5_000_000_000;
    opened.venue = await aPaperVenue({ timer: { now: () => now * 1000, setTimer: () => () => undefined } });
    const path = '/api/v1/trading/account';
    const at = { nonceSeconds: now };
    const longer = await signedRest(live(), 'GET', path, {}, { ...at, signatureOf: (right) => `${right}0` });
    expect(longer.body.code).toBe(2000);
    expect((await signedRest(live(), 'GET', path, {}, at)).body.code).toBe(0);
  });

  it('checks the nonce against its injected clock, not the host clock', async () => {
    const clock = 5_000_000_000;
    opened.venue = await aPaperVenue({ timer: { now: () => clock, setTimer: () => () => undefined } });
    const path = '/api/v1/system/status';
    expect((await signedRest(live(), 'GET', path)).body.code).toBe(7000);
    expect((await signedRest(live(), 'GET', path, {}, { nonceSeconds: clock / 1000 })).body.code).toBe(0);
  });
});
