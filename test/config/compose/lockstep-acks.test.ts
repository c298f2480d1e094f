import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCKSTEP_SETTLE_EVENT, LOCKSTEP_TIME_EVENT } from '../../../backtest/paper-venue/index.ts';
import { lockstepAcks } from '../../../config/compose/lockstep-acks.ts';
import { RestMutationLedger } from '../../../core/venue/index.ts';

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

  it('counts the subscriptions a confirmation carries: the first ack goes once all are confirmed, and only once', () => {
    const sent: number[] = [];
    const acks = lockstepAcks({
      subscriptions: 4,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq) => sent.push(seq),
    });
    const confirmed = (n: number) =>
      JSON.stringify({ event: 'subscribe', arg: Array.from({ length: n }, () => ({})) });
    acks.onMarketFrame(confirmed(3));
    expect(sent).toEqual([]);
    acks.onMarketFrame(confirmed(1));
    expect(sent).toEqual([0]);
    // A reconnect's resubscription is confirmed again: no second first ack.
    acks.onMarketFrame(confirmed(4));
    expect(sent).toEqual([0]);
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

  it('names the earliest timer in each ack, and moves the session to a tick before acknowledging it', async () => {
    const sent: unknown[] = [];
    let nextTimer = Number.POSITIVE_INFINITY;
    const ticks: number[] = [];
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq, extras) => sent.push({ seq, ...extras }),
      wakeAt: () => nextTimer,
      onTick: (time) => {
        ticks.push(time);
        // The timer fired and set the next one.
        nextTimer = time + 60_000;
      },
    });
    acks.onMarketFrame(subscribed);
    nextTimer = 1_000;
    expect(acks.onMarketFrame(marketFrame(1))).toBe(false);
    await flushMicrotasks();
    const tick = JSON.stringify({ event: 'lockstep_time', time: 1_000, tick: 1, code: 0 });
    expect(acks.onMarketFrame(tick)).toBe(true);
    expect(ticks).toEqual([1_000]);
    await flushMicrotasks();
    expect(sent).toEqual([
      { seq: 0, wakeAt: null, tick: 0 },
      { seq: 1, wakeAt: 1_000, tick: 0 },
      { seq: 1, wakeAt: 61_000, tick: 1 },
    ]);
  });

  describe('pacing (speed times real time, on a fake clock)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const FIRST_EVENT = 1_736_173_800_000;

    it('paces from the first event, not from a tick before it: a timer set at 0 holds no later ack', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
      const sent: unknown[] = [];
      let venueTime = 0;
      const acks = lockstepAcks({
        subscriptions: 1,
        speed: 1000,
        sessionClock: () => venueTime,
        send: (seq, extras) => sent.push(`${seq}/${extras.tick}`),
        wakeAt: () => Number.POSITIVE_INFINITY,
        onTick: () => {},
      });
      acks.onMarketFrame(subscribed);
      // Before the first event the venue is at 0: its tick to the timer's time says so.
      acks.onMarketFrame(JSON.stringify({ event: LOCKSTEP_TIME_EVENT, time: 0, tick: 1, code: 0 }));
      await flushMicrotasks();
      venueTime = FIRST_EVENT;
      acks.onMarketFrame(marketFrame(1));
      await flushMicrotasks();
      // Paced from the tick, the event's ack would wait (FIRST_EVENT - 0) / 1000 ms: 20 days.
      expect(sent).toEqual(['0/0', '0/1', '1/1']);
      expect(vi.getTimerCount()).toBe(0);
      venueTime = FIRST_EVENT + 2_000;
      acks.onMarketFrame(marketFrame(2));
      await flushMicrotasks();
      expect(sent).toHaveLength(3);
      vi.advanceTimersByTime(2);
      expect(sent).toEqual(['0/0', '0/1', '1/1', '2/1']);
    });

    /**
     * Acks paced at speed 1 on fake timers (performance faked too), the subscription and a first
     * event at FIRST_EVENT already acknowledged; `next(ms)` delivers an event `ms` of venue time later.
     */
    async function pacedAfterFirstEvent() {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
      const sent: number[] = [];
      let venueTime = FIRST_EVENT;
      const acks = lockstepAcks({
        subscriptions: 1,
        speed: 1,
        sessionClock: () => venueTime,
        send: (seq) => sent.push(seq),
      });
      acks.onMarketFrame(subscribed);
      acks.onMarketFrame(marketFrame(1));
      await flushMicrotasks();
      const next = (ms: number): void => {
        venueTime += ms;
        acks.onMarketFrame(marketFrame(2));
      };
      return { acks, sent, next };
    }

    it('a halt drops the paced wait of an ack still due, so a stopped session keeps no timer alive', async () => {
      const { acks, sent, next } = await pacedAfterFirstEvent();
      // The next event comes an hour later: its ack waits an hour at speed 1.
      next(3_600_000);
      await flushMicrotasks();
      expect(vi.getTimerCount()).toBe(1);
      await acks.halt();
      expect(vi.getTimerCount()).toBe(0);
      expect(sent).toEqual([0, 1]);
    });

    it('paces on real time: a wall clock stepped back an hour between events does not hold the next ack an hour', async () => {
      const { sent, next } = await pacedAfterFirstEvent();
      vi.setSystemTime(Date.now() - 3_600_000);
      next(2_000);
      await flushMicrotasks();
      vi.advanceTimersByTime(1_999);
      expect(sent).toEqual([0, 1]);
      vi.advanceTimersByTime(1);
      expect(sent).toEqual([0, 1, 2]);
    });
  });

  it('counts in each ack the state-changing REST requests sent by then, read as the ack goes', async () => {
    const sent: unknown[] = [];
    const ledger = new RestMutationLedger('run1');
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq, extras) => sent.push({ seq, ...extras }),
      restMutations: ledger,
    });
    acks.onMarketFrame(subscribed);
    acks.onMarketFrame(marketFrame(1));
    // The strategy's reaction to event 1 sends two REST commands before the ack goes.
    ledger.next();
    ledger.next();
    await flushMicrotasks();
    expect(sent).toEqual([
      { seq: 0, restEpoch: 'run1', restSent: 0 },
      { seq: 1, restEpoch: 'run1', restSent: 2 },
    ]);
  });

  it('holds an ack while the session still asks the venue about the event it handled, then sends it', async () => {
    const sent: number[] = [];
    let answer: () => void = () => {};
    let pending: Promise<void> | undefined;
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq) => sent.push(seq),
      pending: () => pending,
    });
    acks.onMarketFrame(subscribed);
    pending = new Promise<void>((resolve) => (answer = resolve));
    acks.onMarketFrame(marketFrame(1));
    await flushMicrotasks();
    await flushMicrotasks();
    expect(sent).toEqual([0]);
    pending = undefined;
    answer();
    await flushMicrotasks();
    expect(sent).toEqual([0, 1]);
  });

  it('while it holds commands behind unanswered ones, tells the venue so once per step, then acks once they went', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    let held: Promise<void> | undefined;
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq, extras) => sent.push(`${seq}${extras.held === true ? ' held' : ''}`),
      held: () => held,
    });
    acks.onMarketFrame(subscribed);
    held = new Promise<void>((resolve) => (release = resolve));
    acks.onMarketFrame(marketFrame(1));
    await flushMicrotasks();
    await flushMicrotasks();
    // Without the `held` ack the venue's time would not move to answer what the command waits for.
    expect(sent).toEqual(['0', '1 held']);
    // The venue released event 2 first (the command waited for is due after it): held for it too.
    acks.onMarketFrame(marketFrame(2));
    await flushMicrotasks();
    expect(sent).toEqual(['0', '1 held', '2 held']);
    held = undefined;
    release();
    await flushMicrotasks();
    await flushMicrotasks();
    expect(sent).toEqual(['0', '1 held', '2 held', '2']);
  });

  it('says in each ack the last settle round it handled, and acknowledges a settle frame once what it left pending is done', async () => {
    const sent: string[] = [];
    let answer: () => void = () => {};
    let pending: Promise<void> | undefined;
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq, extras) => sent.push(`${seq} settle ${extras.settle}`),
      pending: () => pending,
      settleRounds: true,
    });
    acks.onMarketFrame(subscribed);
    acks.onMarketFrame(marketFrame(1));
    await flushMicrotasks();
    expect(sent).toEqual(['0 settle 0', '1 settle 0']);
    // The replies and fills of what it sent on event 1 made it ask the venue something more.
    pending = new Promise<void>((resolve) => (answer = resolve));
    const settle = JSON.stringify({ event: LOCKSTEP_SETTLE_EVENT, round: 1, code: 0, privateSent: 4 });
    // The venue's frame, not market data: left out of the recording.
    expect(acks.onMarketFrame(settle)).toBe(true);
    await flushMicrotasks();
    await flushMicrotasks();
    expect(sent).toEqual(['0 settle 0', '1 settle 0']);
    pending = undefined;
    answer();
    await flushMicrotasks();
    expect(sent).toEqual(['0 settle 0', '1 settle 0', '1 settle 1']);
  });

  it('tells the venue it holds commands in a settle round too', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    let held: Promise<void> | undefined;
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq, extras) => sent.push(`${seq}/${extras.settle}${extras.held === true ? ' held' : ''}`),
      held: () => held,
      settleRounds: true,
    });
    acks.onMarketFrame(subscribed);
    acks.onMarketFrame(marketFrame(1));
    await flushMicrotasks();
    held = new Promise<void>((resolve) => (release = resolve));
    acks.onMarketFrame(JSON.stringify({ event: LOCKSTEP_SETTLE_EVENT, round: 1, code: 0 }));
    await flushMicrotasks();
    await flushMicrotasks();
    expect(sent).toEqual(['0/0', '1/0', '1/1 held']);
    held = undefined;
    release();
    await flushMicrotasks();
    await flushMicrotasks();
    expect(sent).toEqual(['0/0', '1/0', '1/1 held', '1/1']);
  });

  it('tells the venue again that it holds commands each time one went out while others stay held', async () => {
    const sent: string[] = [];
    const releases: (() => void)[] = [];
    let stillHeld = 2;
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq, extras) => sent.push(`${seq}${extras.held === true ? ' held' : ''}`),
      // Two cancels held, each behind its own order's ack: one goes out at a time.
      held: () => (stillHeld === 0 ? undefined : new Promise<void>((resolve) => releases.push(resolve))),
    });
    acks.onMarketFrame(subscribed);
    acks.onMarketFrame(marketFrame(1));
    await flushMicrotasks();
    await flushMicrotasks();
    expect(sent).toEqual(['0', '1 held']);
    // The first cancel went out: the venue must run the second order's place before its next event.
    stillHeld = 1;
    releases.shift()?.();
    await flushMicrotasks();
    await flushMicrotasks();
    expect(sent).toEqual(['0', '1 held', '1 held']);
    stillHeld = 0;
    releases.shift()?.();
    await flushMicrotasks();
    await flushMicrotasks();
    expect(sent).toEqual(['0', '1 held', '1 held', '1']);
  });

  it('once halted sends no ack, not even one still waiting for what is pending, and settles once the last ack sent is answered', async () => {
    const sent: number[] = [];
    const ticks: number[] = [];
    let pending: Promise<void> | undefined;
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq) => sent.push(seq),
      wakeAt: () => Number.POSITIVE_INFINITY,
      onTick: (time) => ticks.push(time),
      pending: () => pending,
    });
    acks.onMarketFrame(subscribed);
    acks.onMarketFrame(marketFrame(1));
    await flushMicrotasks();
    expect(sent).toEqual([0, 1]);
    // The ack of seq 1 released seq 2: the halt settles once it arrived.
    let settled = false;
    const halted = acks.halt().then(() => {
      settled = true;
    });
    await flushMicrotasks();
    expect(settled).toBe(false);
    let release: () => void = () => {};
    pending = new Promise<void>((resolve) => (release = resolve));
    // The event is recorded and handled (not a tick), but not acknowledged.
    expect(acks.onMarketFrame(marketFrame(2))).toBe(false);
    await flushMicrotasks();
    // What the event left pending is done before the halt settles.
    expect(settled).toBe(false);
    pending = undefined;
    release();
    await halted;
    // A tick after the halt is not handled; nothing is acknowledged, nor sent again.
    expect(acks.onMarketFrame(JSON.stringify({ event: LOCKSTEP_TIME_EVENT, time: 5, tick: 1 }))).toBe(true);
    acks.resend();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ticks).toEqual([]);
    expect(sent).toEqual([0, 1]);
  });

  it('halted after a tick, goes on acknowledging until the venue releases the next event, and stops on it', async () => {
    const sent: string[] = [];
    const ticks: number[] = [];
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq, extras) => sent.push(`${seq}${extras.tick === undefined ? '' : ` t${extras.tick}`}`),
      wakeAt: () => Number.POSITIVE_INFINITY,
      onTick: (time) => ticks.push(time),
      settleRounds: true,
    });
    const tickFrame = (tick: number) => JSON.stringify({ event: LOCKSTEP_TIME_EVENT, time: 1_500, tick });
    acks.onMarketFrame(subscribed);
    acks.onMarketFrame(marketFrame(1));
    await flushMicrotasks();
    acks.onMarketFrame(tickFrame(1));
    // The timer fired on the tick (its order sent) and the stop came before its ack went.
    let settled = false;
    const halted = acks.halt().then(() => {
      settled = true;
    });
    await flushMicrotasks();
    expect(ticks).toEqual([1_500]);
    expect(sent).toEqual(['0 t0', '1 t0', '1 t1']);
    // The venue settles what the timer sent: handled and acknowledged, the halt still waiting.
    acks.onMarketFrame(JSON.stringify({ event: LOCKSTEP_SETTLE_EVENT, round: 1 }));
    await flushMicrotasks();
    expect(sent).toEqual(['0 t0', '1 t0', '1 t1', '1 t1']);
    expect(settled).toBe(false);
    // The event the tick came before: handled, not acknowledged, and the halt settles.
    expect(acks.onMarketFrame(marketFrame(2))).toBe(false);
    await halted;
    await flushMicrotasks();
    expect(sent).toHaveLength(4);
    // A tick after it is left unhandled.
    acks.onMarketFrame(tickFrame(2));
    expect(ticks).toEqual([1_500]);
  });

  it('settles a halt at once when the last ack sent was answered, and drops the ack still due', async () => {
    const sent: number[] = [];
    const acks = lockstepAcks({
      subscriptions: 1,
      speed: Number.POSITIVE_INFINITY,
      sessionClock: () => 0,
      send: (seq) => sent.push(seq),
    });
    acks.onMarketFrame(subscribed);
    acks.onMarketFrame(marketFrame(1));
    // Halted before the ack of seq 1 went: it never goes, and nothing is awaited.
    await acks.halt();
    await flushMicrotasks();
    expect(sent).toEqual([0]);
  });
});
