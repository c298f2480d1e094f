import { describe, expect, it } from 'vitest';
import { embeddedPaperVenues, lockstepPaperConfig } from '../../kit/embedded-paper-runs.ts';

const embedded = embeddedPaperVenues();

describe('a paper run with paper.fillModel', () => {
  it('matches with the configured settings, not only the model name, and the report says which', async () => {
    const started = await embedded(
      lockstepPaperConfig('  fillModel: { name: touch, partialFills: false, slippageTicks: 3 }\n'),
    );
    expect(started.venue.fillModel).toBe('touch (full fills, market slippage 3 ticks + 1 beyond the book)');
    expect(started.fillModel).toEqual({
      name: 'touch',
      description: `The paper venue's simulated matching over loopback: ${started.venue.fillModel}.`,
    });
  });

  it('uses the queue model with its default settings when none is configured', async () => {
    const started = await embedded(lockstepPaperConfig());
    expect(started.fillModel.name).toBe('queue');
    expect(started.venue.fillModel).toContain('partial fills limited by displayed/traded size');
  });
});
