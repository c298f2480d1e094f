import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { instrumentSpecsOf } from '../../../config/compose/instrument-specs.ts';
import { type EmbeddedPaperVenue, startEmbeddedPaperVenue } from '../../../config/compose/paper-run.ts';
import { loadValidConfig } from '../../../config/loader/index.ts';

const dirs: string[] = [];
let venue: PaperVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function embedded(fillModel: string): Promise<EmbeddedPaperVenue> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-paper-fill-'));
  dirs.push(dir);
  const file = join(dir, 'paper.yaml');
  writeFileSync(
    file,
    `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
paper:
  lockstep: true
  source: { kind: synthetic, seed: 1 }
${fillModel}`,
  );
  const loaded = loadValidConfig(file);
  const started = await startEmbeddedPaperVenue(
    loaded,
    instrumentSpecsOf(loaded.config.instruments),
    Date.now(),
  );
  venue = started.venue;
  return started;
}

describe('a paper run with paper.fillModel', () => {
  it('matches with the configured settings, not only the model name, and the report says which', async () => {
    const started = await embedded('  fillModel: { name: touch, partialFills: false, slippageTicks: 3 }\n');
    expect(started.venue.fillModel).toBe('touch (full fills, market slippage 3 ticks + 1 beyond the book)');
    expect(started.fillModel).toEqual({
      name: 'touch',
      description: `The paper venue's simulated matching over loopback: ${started.venue.fillModel}.`,
    });
  });

  it('uses the queue model with its default settings when none is configured', async () => {
    const started = await embedded('');
    expect(started.fillModel.name).toBe('queue');
    expect(started.venue.fillModel).toContain('partial fills limited by displayed/traded size');
  });
});
