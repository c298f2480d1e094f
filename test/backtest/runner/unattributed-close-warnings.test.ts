import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unattributedCloseWarnings } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { venueClose } from '../../kit/venue-fill-events.ts';

const closer = defineStrategy({
  name: 'closer',
  params: z.object({}),
  onQuote: (ctx) => ctx.order.closePosition(BTC),
});

describe('the warnings of close orders that went to no strategy', () => {
  it('name the order, its sym and the strategies whose closes of the leg were in flight at once', () => {
    const r = aRecordingKernelRig([
      { id: 'alpha', strategy: closer },
      { id: 'beta', strategy: closer },
    ]);
    r.port.emit(aPositionUpdate(0, '2'));
    r.market.next(aQuote(1, 100));
    for (const event of venueClose('venue-close-1', 'SELL', '2', 2)) r.port.emit(event);
    expect(r.kernel.state.ownerOf('venue-close-1')).toBeUndefined();
    const [warning, ...rest] = unattributedCloseWarnings(r.kernel);
    expect(rest).toEqual([]);
    expect(warning).toContain(`the order venue-close-1 closing ${BTC} went to no strategy`);
    expect(warning).toContain('alpha and beta were closing that leg at once');
  });

  it('say nothing when the close order went to the close sent first (the venue makes them in send order)', () => {
    const r = aRecordingKernelRig(
      [
        { id: 'alpha', strategy: closer },
        { id: 'beta', strategy: closer },
      ],
      { closeOrdering: 'sendOrder' },
    );
    r.port.emit(aPositionUpdate(0, '2'));
    r.market.next(aQuote(1, 100));
    for (const event of venueClose('venue-close-1', 'SELL', '2', 2)) r.port.emit(event);
    expect(r.kernel.state.ownerOf('venue-close-1')).toBe('alpha');
    expect(unattributedCloseWarnings(r.kernel)).toEqual([]);
  });
});
