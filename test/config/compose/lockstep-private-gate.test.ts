import { afterEach, describe, expect, it, vi } from 'vitest';
import { lockstepPrivateGate } from '../../../config/compose/lockstep-private-gate.ts';

const market = (name: string, privateSent?: number) =>
  JSON.stringify({ name, ...(privateSent === undefined ? {} : { privateSent }) });
const loginOk = JSON.stringify({
  id: null,
  event: 'login',
  code: 0,
  msg: '',
  message: 'success',
  data: null,
});
const flushMicrotasks = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('the lockstep gate of market frames on the private frames sent before them', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds a market frame, and every one after it, until the private frames it counts arrived and were handled', async () => {
    const seen: string[] = [];
    const { gate, onPrivateFrame } = lockstepPrivateGate({ waitMs: 2000, stalled: () => {} });
    const frame = (text: string) => gate(text, () => seen.push(JSON.parse(text).name));
    const pushed = (name: string) => {
      onPrivateFrame('{}');
      // The private frame is handled synchronously after the tap.
      seen.push(name);
    };
    onPrivateFrame(loginOk);
    frame(market('quote-0', 0));
    frame(market('quote-1', 2));
    frame(market('control'));
    expect(seen).toEqual(['quote-0']);
    pushed('fill-1');
    await flushMicrotasks();
    expect(seen).toEqual(['quote-0', 'fill-1']);
    pushed('fill-2');
    await flushMicrotasks();
    expect(seen).toEqual(['quote-0', 'fill-1', 'fill-2', 'quote-1', 'control']);
  });

  it('counts from each login: a reconnected socket starts again from zero, as the venue does', async () => {
    const seen: string[] = [];
    const { gate, onPrivateFrame } = lockstepPrivateGate({ waitMs: 2000, stalled: () => {} });
    onPrivateFrame(loginOk);
    for (let i = 0; i < 5; i++) onPrivateFrame('{}');
    onPrivateFrame(loginOk);
    gate(market('quote', 1), () => seen.push('quote'));
    expect(seen).toEqual([]);
    onPrivateFrame('{}');
    await flushMicrotasks();
    expect(seen).toEqual(['quote']);
  });

  it('handles a frame held too long anyway, and says so, so a lost private frame never freezes the session', () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const stalls: [number, number][] = [];
    const { gate, onPrivateFrame } = lockstepPrivateGate({
      waitMs: 2000,
      stalled: (expected, received) => stalls.push([expected, received]),
    });
    onPrivateFrame(loginOk);
    gate(market('quote-1', 3), () => seen.push('quote-1'));
    gate(market('quote-2', 0), () => seen.push('quote-2'));
    vi.advanceTimersByTime(1999);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['quote-1', 'quote-2']);
    expect(stalls).toEqual([[3, 0]]);
  });
});
