import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT } from '../../../../core/venue/index.ts';
import { Heartbeat } from '../../../../core/venue/ws/heartbeat.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';

/** A heartbeat on a fake timer, with what it did. */
function watched(policy = DEFAULT_HEARTBEAT, timer: FakeTimer = fakeTimer()) {
  const pings: number[] = [];
  const verdicts: number[] = [];
  const probed: boolean[] = [];
  const heartbeat = new Heartbeat(timer, policy, {
    ping: () => pings.push(timer.now()),
    silent: (silentMs, afterProbe) => {
      verdicts.push(silentMs);
      probed.push(afterProbe);
    },
  });
  return { timer, heartbeat, pings, verdicts, probed };
}

describe('heartbeat: pings and the silence watchdog', () => {
  it('gives a silent socket up 15 s after it started by default (a ping every 5 s, 3 silent intervals)', async () => {
    const { timer, heartbeat, pings, verdicts } = watched();
    const began = timer.now();
    heartbeat.start();
    await timer.advance(14_999);
    expect(verdicts).toEqual([]);
    expect(pings.map((at) => at - began)).toEqual([5_000, 10_000]);
    await timer.advance(1);
    expect(verdicts).toEqual([15_000]);
    await timer.advance(60_000);
    expect(verdicts).toHaveLength(1);
    expect(pings).toHaveLength(2);
  });

  it('counts the silence from the last frame: the verdict comes at the limit, not at the next ping after it', async () => {
    const { timer, heartbeat, verdicts } = watched({ intervalMs: 20_000, silentIntervals: 2 });
    heartbeat.start();
    await timer.advance(10_000);
    heartbeat.heard();
    await timer.advance(39_999);
    expect(verdicts).toEqual([]);
    await timer.advance(1);
    expect(verdicts).toEqual([40_000]);
  });

  it('keeps a socket whose frames keep coming, however long', async () => {
    const { timer, heartbeat, pings, verdicts } = watched();
    heartbeat.start();
    for (let second = 0; second < 120; second++) {
      await timer.advance(1_000);
      if (second % 7 === 0) heartbeat.heard();
    }
    expect(verdicts).toEqual([]);
    expect(pings).toHaveLength(24);
    heartbeat.stop();
  });

  it('does nothing more once stopped, and counts afresh when started again', async () => {
    const { timer, heartbeat, pings, verdicts } = watched();
    heartbeat.start();
    await timer.advance(7_000);
    heartbeat.stop();
    expect(timer.pending()).toBe(0);
    await timer.advance(60_000);
    expect([pings.length, verdicts.length]).toEqual([1, 0]);
    heartbeat.start();
    await timer.advance(14_999);
    expect(verdicts).toEqual([]);
    await timer.advance(1);
    expect(verdicts).toEqual([15_000]);
  });

  it('says the silence in whole ms when its timer fires a fraction late', async () => {
    const fake = fakeTimer(0);
    let late = 0;
    const timer = { ...fake, monotonic: () => fake.now() + late };
    const { heartbeat, verdicts } = watched(DEFAULT_HEARTBEAT, timer);
    heartbeat.start();
    late = 51.987581;
    await timer.advance(15_000);
    expect(verdicts).toEqual([15_052]);
  });

  it('probes after an unanswered request when nothing came since it was sent: pings at once, gives up one interval later', async () => {
    const { timer, heartbeat, pings, verdicts, probed } = watched();
    heartbeat.start();
    const sentAt = timer.now();
    await timer.advance(5_000);
    expect(pings).toHaveLength(1);
    expect(heartbeat.probe(sentAt)).toBe(true);
    expect(pings).toHaveLength(2);
    expect(heartbeat.probe(sentAt)).toBe(false);
    await timer.advance(4_999);
    expect(verdicts).toEqual([]);
    await timer.advance(1);
    expect(verdicts).toEqual([10_000]);
    expect(probed).toEqual([true]);
  });

  it('ends a probe that a frame answers, and goes on to the usual limit', async () => {
    const { timer, heartbeat, verdicts, probed } = watched();
    heartbeat.start();
    const sentAt = timer.now();
    await timer.advance(5_000);
    expect(heartbeat.probe(sentAt)).toBe(true);
    await timer.advance(1_000);
    heartbeat.heard();
    await timer.advance(14_999);
    expect(verdicts).toEqual([]);
    await timer.advance(1);
    expect(verdicts).toEqual([15_000]);
    expect(probed).toEqual([false]);
  });

  it('does not probe when a frame came since the request was sent, or when the limit comes first', async () => {
    const { timer, heartbeat } = watched();
    heartbeat.start();
    const sentAt = timer.now();
    await timer.advance(3_000);
    heartbeat.heard();
    await timer.advance(2_000);
    expect(heartbeat.probe(sentAt)).toBe(false);
    await timer.advance(10_000);
    expect(heartbeat.probe(timer.now() - 5_000)).toBe(false);
    heartbeat.stop();
  });
});
