import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { instrumentSpecsOf } from '../../config/compose/instrument-specs.ts';
import { type EmbeddedPaperVenue, startEmbeddedPaperVenue } from '../../config/compose/paper-run.ts';
import { loadValidConfig } from '../../config/loader/index.ts';

/**
 * A lockstep paper config of the market maker on SYNTHETIC BTC data, its venue releasing nothing
 * until acknowledged (so venue time stays put), with `extraPaperLines` added to its paper section.
 * @param extraPaperLines - more `paper:` keys, each line indented by two spaces and ending in a newline
 * @returns the YAML text
 */
export function lockstepPaperConfig(extraPaperLines = ''): string {
  return `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
paper:
  lockstep: true
  source: { kind: synthetic, seed: 1 }
${extraPaperLines}`;
}

/**
 * Starts the embedded paper venue of config texts written to temporary files, as a paper run
 * would; the venues are closed and the files removed after each test of the file this is called in.
 * @returns a function starting one config text's venue
 */
export function embeddedPaperVenues(): (configText: string) => Promise<EmbeddedPaperVenue> {
  const dirs: string[] = [];
  const started: EmbeddedPaperVenue[] = [];
  afterEach(async () => {
    for (const run of started.splice(0)) await run.venue.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return async (configText) => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-embedded-paper-'));
    dirs.push(dir);
    const file = join(dir, 'paper.yaml');
    writeFileSync(file, configText);
    const loaded = loadValidConfig(file);
    const run = await startEmbeddedPaperVenue(
      loaded,
      instrumentSpecsOf(loaded.config.instruments),
      Date.now(),
      { warn: () => undefined, error: () => undefined },
    );
    started.push(run);
    return run;
  };
}
