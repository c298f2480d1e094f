import { describe, expect, it } from 'vitest';
import { positionToWire } from '../../../backtest/paper-venue/wire-views.ts';
import { decodeWire, positionFromWire, positionWireSchema } from '../../../core/venue/index.ts';
import { aPositionUpdate } from '../../kit/kernel-events.ts';
import { WIRE_POSITION } from '../../kit/venue-wire-samples.ts';

describe("the paper venue's Positions push states the ADL rank its sim gave the position", () => {
  it('carries the rank to the session: the position it maps to has the rank a backtest position has', () => {
    const { position } = aPositionUpdate(1, '3', { adlRank: 3 });
    const wire = positionToWire(position);
    expect(wire.adlRank).toBe(3);
    expect(
      positionFromWire(decodeWire(positionWireSchema, JSON.parse(JSON.stringify(wire)), 'test')).adlRank,
    ).toBe(3);
  });

  it("maps a live venue's position, which states no rank, as rank 0 (unknown: read from GET /api/v1/adl/rank)", () => {
    expect(positionFromWire(decodeWire(positionWireSchema, WIRE_POSITION, 'test')).adlRank).toBe(0);
  });
});
