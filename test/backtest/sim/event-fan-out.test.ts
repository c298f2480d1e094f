import { describe, expect, it } from 'vitest';
import { eventFanOut } from '../../../backtest/sim/event-fan-out.ts';

describe('eventFanOut', () => {
  it('sends each event to every subscriber of the moment, in subscription order', () => {
    const { events, emit } = eventFanOut<number>();
    const seen: string[] = [];
    emit(0);
    const a = events.subscribe((n) => seen.push(`a${n}`));
    events.subscribe((n) => seen.push(`b${n}`));
    emit(1);
    a.unsubscribe();
    emit(2);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
  });

  it('sends an event to those subscribed when the sending started, as a Subject does', () => {
    const { events, emit } = eventFanOut<number>();
    const seen: string[] = [];
    let subscribedLate = false;
    const first = events.subscribe((n) => {
      seen.push(`first${n}`);
      if (!subscribedLate) events.subscribe((m) => seen.push(`late${m}`));
      subscribedLate = true;
      if (n === 2) first.unsubscribe();
    });
    const second = events.subscribe((n) => {
      seen.push(`second${n}`);
      if (n === 1) second.unsubscribe();
    });
    emit(1);
    emit(2);
    emit(3);
    expect(seen).toEqual(['first1', 'second1', 'first2', 'late2', 'late3']);
  });
});
