import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  DecodeError,
  RequestRuleError,
  VENUE_ERROR_MEANINGS,
  VenueError,
} from '../../../../core/venue/index.ts';
import { venueRestRig } from '../../../kit/venue-rest-rig.ts';
import { ok, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const SPEC_CODES = [
  401129, 401011, 406014, 406015, 406016, 406017, 406018, 406019, 406020, 406021, 406022, 406023,
];
const PUBLIC_CODES = [
  2000, 2001, 2002, 2003, 7000, 400001, 400009, 401018, 401023, 401058, 401097, 401117, 406010, 406012, 40000,
  50001,
];

describe('venue REST client: errors', () => {
  const venue = venueRestRig({ retry: { maxRetries: 2, baseMs: 1, capMs: 2 } });

  it.each([...SPEC_CODES, ...PUBLIC_CODES])(
    'maps venue code %i to a VenueError with its meaning, method and path',
    async (code) => {
      venue.server.handler = () => ({ body: { code, message: `venue says ${code}`, data: null } });
      const error = await venue.client
        .marginBorrow({ exchange: 'BINANCE', coin: 'USDT', amount: '1' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VenueError);
      const venueError = error as VenueError;
      expect(venueError.code).toBe(code);
      expect(venueError.venueMessage).toBe(`venue says ${code}`);
      expect(venueError.method).toBe('POST');
      expect(venueError.path).toBe('/api/v1/trading/marginLoan/loan/borrow');
      expect(venueError.meaning).toBe(VENUE_ERROR_MEANINGS.get(code));
      expect(venueError.meaning).toBeTypeOf('string');
      expect(venueError.message).toContain(String(code));
    },
  );

  it('gives each of the ten loan codes 406014-406023 its own meaning', () => {
    const meanings = SPEC_CODES.slice(2).map((code) => VENUE_ERROR_MEANINGS.get(code));
    expect(new Set(meanings).size).toBe(10);
  });

  it('accepts the public venue success code 200000 with msg instead of message', async () => {
    venue.server.handler = () => ({ body: { code: 200000, msg: 'Success', data: WIRE_ORDER } });
    const order = await venue.client.getOrder({ orderId: 'o-1' });
    expect(order.orderId).toBe('o-1');
  });

  it('raises a DecodeError naming the field path when a required field is missing', async () => {
    const { orderQty: _dropped, ...broken } = WIRE_ORDER;
    venue.server.handler = () => ({ body: ok([WIRE_ORDER, broken]) });
    const error = await venue.client.getOpenOrders().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).path).toBe('data[1].orderQty');
    expect(venue.client.counters.malformed).toBe(1);
    expect((error as DecodeError).message).toContain('GET /api/v1/trading/orders');
  });

  it('raises a DecodeError naming the field when a required field has the wrong type', async () => {
    venue.server.handler = () => ({ body: ok({ ...WIRE_ORDER, orderQty: 1 }) });
    const error = await venue.client.getOrder({ orderId: 'o-1' }).catch((e: unknown) => e);
    expect((error as DecodeError).path).toBe('data.orderQty');
  });

  it('refuses more than 20 syms in close positions before sending (the venue would answer 401129)', () => {
    const before = venue.server.requests.length;
    const symList = Array.from({ length: 21 }, (_, i) => `S${i}`);
    expect(() => venue.client.closePositions({ symList })).toThrow(RequestRuleError);
    expect(venue.server.requests.length).toBe(before);
  });

  it('refuses fields the spec says algo endpoints do not accept', () => {
    const body = {
      sym: 'S',
      side: 'BUY',
      algoOrderType: 'TRIGGER',
      conditionType: 'GTE',
      triggerType: 'MarkPrice',
      triggerPrice: '1',
      price: '0',
      qty: '1',
      timeInForce: 'GTC',
    } as const;
    expect(() => venue.client.placeAlgoOrder(body)).toThrow(/timeInForce/);
    expect(() => venue.client.cancelAlgoOrder({ algoOrderId: 'a', attachedOrderId: 'x' } as never)).toThrow(
      /attachedOrderId/,
    );
  });

  it('refuses a markup finer than 0.01 bps', () => {
    expect(() => venue.client.setSubFeeRate({ subPortfolioId: 'sp', markup: '0.125' })).toThrow(/0.01 bps/);
  });
});

describe('venue REST client: retries', () => {
  const venue = venueRestRig({ retry: { maxRetries: 3, baseMs: 1, capMs: 4 } });

  it('retries a GET answered 503 and returns the later success', async () => {
    let calls = 0;
    venue.server.handler = () =>
      ++calls < 3 ? { status: 503, body: 'unavailable' } : { body: ok(WIRE_ORDER) };
    const order = await venue.client.getOrder({ clientOrderId: 'c-1' });
    expect(order.clientOrderId).toBe('c-1');
    expect(calls).toBe(3);
  });

  it('retries a GET answered 429', async () => {
    let calls = 0;
    venue.server.handler = () => (++calls < 2 ? { status: 429, body: '' } : { body: ok([]) });
    await venue.client.getOpenOrders();
    expect(calls).toBe(2);
  });

  it('never retries a POST answered 503: one request, then a VenueError with the HTTP status', async () => {
    let calls = 0;
    venue.server.handler = () => {
      calls++;
      return { status: 503, body: 'unavailable' };
    };
    const error = await venue.client
      .placeOrder({ sym: 'S', side: 'BUY', orderType: 'LIMIT', orderQty: '1', limitPrice: '1' })
      .catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(error).toBeInstanceOf(VenueError);
    expect((error as VenueError).httpStatus).toBe(503);
  });

  it('gives up on a GET after the configured retries', async () => {
    let calls = 0;
    venue.server.handler = () => {
      calls++;
      return { status: 500, body: '' };
    };
    await expect(venue.client.getOpenOrders()).rejects.toBeInstanceOf(VenueError);
    expect(calls).toBe(4);
  });

  it('does not retry a GET the venue refused with an error code', async () => {
    let calls = 0;
    venue.server.handler = () => {
      calls++;
      return { body: { code: 401018, message: 'order not found' } };
    };
    await expect(venue.client.getOrder({ clientOrderId: 'x' })).rejects.toMatchObject({ code: 401018 });
    expect(calls).toBe(1);
  });
});

describe('venue REST client: retry warnings', () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const venue = venueRestRig({ retry: { maxRetries: 2, baseMs: 1, capMs: 2 }, logger: pino(sink) });

  it('names what made the previous attempt fail, so an operator sees the cause before the retries run out', async () => {
    let calls = 0;
    venue.server.handler = () => (++calls < 3 ? { status: 503, body: '' } : { body: ok([]) });
    await venue.client.getOpenOrders();
    const retries = lines.filter((line) => line.msg === 'retrying venue GET');
    expect(retries.map((line) => line.attempt)).toEqual([1, 2]);
    for (const line of retries) {
      expect(line.path).toBe('/api/v1/trading/orders');
      expect(line.reason).toBe('GET /api/v1/trading/orders reply: HTTP 503');
    }
  });
});
