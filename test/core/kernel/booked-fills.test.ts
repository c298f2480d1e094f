import { describe, expect, it } from 'vitest';
import { BookedFills } from '../../../core/kernel/booked-fills.ts';

describe('booked fills', () => {
  it('books a transactionId the first time and refuses it as a duplicate after', () => {
    const booked = new BookedFills();
    expect(booked.book('T-1')).toBe(true);
    expect(booked.book('T-2')).toBe(true);
    expect(booked.book('T-1')).toBe(false);
    expect(booked.book('T-2')).toBe(false);
  });

  it('forgets the oldest transactionId once 100 000 newer ones were booked', () => {
    const booked = new BookedFills();
    let refused = 0;
    for (let i = 0; i <= 100_000; i++) if (!booked.book(`T-${i}`)) refused++;
    expect(refused).toBe(0);
    expect(booked.book('T-0')).toBe(true);
    expect(booked.book('T-100000')).toBe(false);
  });
});
