import { describe, expect, it } from 'vitest';
import { decodeSessionRecord } from '../../config/session-decoder.ts';
import { WIRE_ORDER } from '../kit/venue-wire-samples.ts';

describe('session record decoder', () => {
  it('decodes market-data records with the venue decoders', () => {
    const event = decodeSessionRecord({
      recvTs: 7,
      source: 'market-data',
      msg: {
        arg: { channel: 'BBO', sym: 'X' },
        data: { bid: '1', bidqty: '2', ask: '3', askqty: '4', ts: 5 },
      },
    });
    expect(event).toEqual({
      kind: 'quote',
      sym: 'X',
      ts: 5,
      recvTs: 7,
      bid: 1,
      bidQty: 2,
      ask: 3,
      askQty: 4,
    });
  });

  it('returns the decode error of a malformed push so the reader can report its line', () => {
    const event = decodeSessionRecord({
      recvTs: 7,
      source: 'market-data',
      msg: { arg: { channel: 'BBO', sym: 'X' } },
    });
    expect(event).toBeInstanceOf(Error);
    expect((event as Error).message).toContain('data');
  });

  it('decodes private-stream User Data frames into their events, as the live private socket does', () => {
    const events = decodeSessionRecord({
      recvTs: 9,
      source: 'private',
      msg: { channel: 'Orders', ts: 8, data: [WIRE_ORDER, { ...WIRE_ORDER, orderId: 'o-2' }] },
    });
    expect(Array.isArray(events)).toBe(true);
    const list = events as readonly { kind: string; recvTs: number; order: { orderId: string } }[];
    expect(list.map((e) => [e.kind, e.order.orderId, e.recvTs])).toEqual([
      ['order', 'o-1', 9],
      ['order', 'o-2', 9],
    ]);
  });

  it('drops private replies and heartbeats, and reports a malformed private frame', () => {
    expect(decodeSessionRecord({ recvTs: 1, source: 'private', msg: 'pong' })).toBeNull();
    expect(
      decodeSessionRecord({
        recvTs: 1,
        source: 'private',
        msg: { id: null, event: 'login', code: 0, msg: '', data: null },
      }),
    ).toBeNull();
    expect(
      decodeSessionRecord({ recvTs: 1, source: 'private', msg: { channel: 'orders', data: 5 } }),
    ).toBeInstanceOf(Error);
  });
});
