import { describe, expect, it } from 'vitest';
import { decodeSessionRecord } from '../../config/session-decoder.ts';

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

  it('drops private-stream records until the User Data decoders are wired in', () => {
    expect(decodeSessionRecord({ recvTs: 7, source: 'private', msg: { channel: 'orders' } })).toBeNull();
  });
});
