import { describe, expect, it } from 'vitest';
import { paperParityNotes } from '../../../config/compose/paper-parity-notes.ts';

describe('what a paper session says of the backtest of its recording', () => {
  it('says nothing more in lockstep on quotes and trades', () => {
    expect(paperParityNotes({ lockstep: true, barFillModel: false })).toEqual([]);
  });

  it('without lockstep, says its fills will not be reproduced exactly and recommends lockstep', () => {
    const [note] = paperParityNotes({ lockstep: false, barFillModel: false });
    expect(note).toContain('later than the timer’s or the event’s time');
    expect(note).toContain('before the first market event the session received');
    expect(note).toContain('Set paper.lockstep: true');
  });

  it('on bars, says the curve may differ where a fill came with the next bar, and the fills do not', () => {
    const notes = paperParityNotes({ lockstep: true, barFillModel: true });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Fills and final equity are the same, but the curve');
  });
});
