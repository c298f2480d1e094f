import fc from 'fast-check';
import {
  WIRE_ACCOUNT,
  WIRE_ASSET_WITH_LOAN,
  WIRE_EXECUTION,
  WIRE_LIQ_EVENT,
  WIRE_LIQ_POSITION,
  WIRE_ORDER,
  WIRE_POSITION,
} from './venue-wire-samples.ts';

/** Valid private-WebSocket frames of every kind: pushes of each channel and replies. */
export const VALID_PRIVATE_FRAMES: readonly object[] = [
  { channel: 'Orders', data: [WIRE_ORDER] },
  { channel: 'Trades', data: [WIRE_EXECUTION] },
  { channel: 'Positions', data: [WIRE_POSITION] },
  { channel: 'Assets', data: [WIRE_ASSET_WITH_LOAN] },
  { channel: 'Accounts', data: WIRE_ACCOUNT },
  { channel: 'LiquidationEvent', data: WIRE_LIQ_EVENT },
  { channel: 'LiquidationPosition', data: WIRE_LIQ_POSITION },
  { channel: 'LiquidationPositionByUser', data: [WIRE_LIQ_POSITION] },
  {
    event: 'PLACE_ORDER_ACK',
    id: '1',
    code: 0,
    message: 'success',
    data: { orderNo: 'n', orderStatus: 'NEW' },
  },
  { event: 'place_order', id: '2', code: 0, msg: '', data: { orderId: 'o', clientOrderId: 'c' } },
  { event: 'login', id: null, code: 0, msg: '', data: null },
];

/** Valid market-data frames of every channel Keel decodes. */
export const VALID_MARKET_FRAMES: readonly object[] = [
  {
    arg: { channel: 'BBO', sym: 'BINANCE_PERP_BTC_USDT' },
    data: { bid: '1', bidqty: '2', ask: '3', askqty: '4', ts: 5 },
  },
  {
    arg: { channel: 'TRADE', sym: 'BINANCE_PERP_BTC_USDT' },
    data: { tradeId: 't', price: '1', qty: '2', side: 'BUY', ts: 5 },
  },
  {
    arg: { channel: 'KLINE', sym: 'BINANCE_PERP_BTC_USDT', interval: '1m' },
    data: {
      openTime: 0,
      open: '1',
      high: '2',
      low: '0.5',
      close: '1.5',
      volume: '10',
      closed: true,
      ts: 60_000,
    },
  },
  {
    arg: { channel: 'ORDER_BOOK', sym: 'BINANCE_PERP_BTC_USDT' },
    data: { bids: [['1', '2']], asks: [['3', '4']], ts: 5 },
  },
  { arg: { channel: 'MARK_PRICE', sym: 'BINANCE_PERP_BTC_USDT' }, data: { markPrice: '1', ts: 5 } },
  { event: 'subscribe', code: 0, arg: [{ channel: 'BBO', sym: 'BINANCE_PERP_BTC_USDT' }] },
  { ping: 1 },
  { pong: 1 },
];

const strangeValue = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 8 }),
  fc.constant([]),
  fc.constant({}),
  fc.constant('1e5'),
  fc.constant('NaN'),
);

type Json = unknown;

/** Paths to every value inside a JSON value (object keys and array indexes). */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...pathsOf(v, [...prefix, i])]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
  }
  return [];
}

function edit(
  value: Json,
  path: (string | number)[],
  change: (parent: Record<string | number, Json>, key: string | number) => void,
): Json {
  const copy = structuredClone(value) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  change(parent, path[path.length - 1] as string | number);
  return copy;
}

/**
 * Mutated frames: a valid frame with one field dropped or given a wrong type, or its JSON text
 * truncated, or garbage.
 * @param valid - the valid frames to start from
 * @returns an arbitrary of frame texts
 */
export function mutatedFrame(valid: readonly object[]): fc.Arbitrary<string> {
  // (frame, path) pairs and texts are computed once, so generation needs no chain().
  const pairs = valid.flatMap((frame) => pathsOf(frame).map((path) => [frame, path] as const));
  const texts = valid.map((frame) => JSON.stringify(frame));
  const dropField = fc.constantFrom(...pairs).map(([frame, path]) =>
    JSON.stringify(
      edit(frame, path, (parent, key) => {
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete parent[key];
      }),
    ),
  );
  const retype = fc.tuple(fc.constantFrom(...pairs), strangeValue).map(([[frame, path], value]) =>
    JSON.stringify(
      edit(frame, path, (parent, key) => {
        parent[key] = value;
      }),
    ),
  );
  const truncate = fc
    .tuple(fc.constantFrom(...texts), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([text, at]) => text.slice(0, Math.floor(at * (text.length - 1))));
  const garbage = fc.oneof(fc.string(), fc.json(), fc.constant('pong'), fc.constant(''), fc.constant('[]'));
  return fc.oneof(
    { arbitrary: dropField, weight: 3 },
    { arbitrary: retype, weight: 3 },
    { arbitrary: truncate, weight: 2 },
    { arbitrary: fc.constantFrom(...texts), weight: 1 },
    { arbitrary: garbage, weight: 1 },
  );
}
