import { describe, expect, it } from 'vitest';
import { lockstepAcks } from '../../../config/compose/lockstep-acks.ts';

const subscribed = JSON.stringify({ event: 'subscribe' });
const marketFrame = (seq: number) => JSON.stringify({ seq, data: {} });
const flushMicrotasks = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('lockstep acknowledgements to the paper venue', () => {
  it('sends the latest ack again after a reconnect, since the one sent while the socket was down was lost', async () => {
    const delivered: number[] = [];
    let socketUp = true;
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq) => {
        if (socketUp) delivered.push(seq);
      },
    });
    acks.onMarketFrame(subscribed);
    acks.onMarketFrame(marketFrame(1));
    await flushMicrotasks();
    socketUp = false;
    acks.onMarketFrame(marketFrame(2));
    await flushMicrotasks();
    expect(delivered).toEqual([0, 1]);
    socketUp = true;
    acks.resend();
    expect(delivered).toEqual([0, 1, 2]);
  });

  it('sends nothing on a reconnect before the first ack was due', () => {
    const sent: number[] = [];
    const acks = lockstepAcks({
      subscriptions: 2,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq) => sent.push(seq),
    });
    acks.onMarketFrame(subscribed);
    acks.resend();
    expect(sent).toEqual([]);
  });
});
