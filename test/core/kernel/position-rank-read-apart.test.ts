import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { UserEvent } from '../../../core/model/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aPositionUpdate, BTC } from '../../kit/kernel-events.ts';

const seen: { position: number | undefined; ctx: number }[] = [];
const watcher = defineStrategy({
  name: 'rank-reader',
  params: z.object({}),
  onPosition: (ctx) => {
    seen.push({ position: ctx.position(BTC)?.adlRank, ctx: ctx.adlRank(BTC) });
  },
});

/** A rank read from the venue's ADL endpoint, as a live session reports it. */
const rankRead = (ts: number, rank: number): UserEvent => ({
  kind: 'adlRank',
  ts,
  recvTs: ts,
  sym: BTC,
  positionId: 'pos-1',
  positionSide: 'NONE',
  rank,
});

describe('a position whose venue reports its ADL rank apart (live: GET /api/v1/adl/rank)', () => {
  it('states the rank last read, as ctx.adlRank() does, though its own reports carry none', () => {
    seen.length = 0;
    const r = aRecordingKernelRig([{ id: 'w', strategy: watcher }]);
    r.port.emit(aPositionUpdate(1, '2'));
    r.port.emit(rankRead(2, 4));
    expect(r.kernel.state.positions.get(`${BTC}|NONE`)?.adlRank).toBe(4);
    r.port.emit(aPositionUpdate(3, '3'));
    r.port.emit(rankRead(4, 2));
    r.port.emit(aPositionUpdate(5, '1'));
    r.port.emit(aPositionUpdate(6, '0'));
    expect(seen).toEqual([
      { position: 0, ctx: 0 },
      { position: 4, ctx: 4 },
      { position: 2, ctx: 2 },
      { position: 0, ctx: 0 },
    ]);
  });
});
