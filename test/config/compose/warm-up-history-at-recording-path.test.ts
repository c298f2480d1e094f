import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputCollision, runInputFiles, runOutputFiles } from '../../../config/compose/output-collisions.ts';
import { keepPreviousRecording } from '../../../config/compose/previous-recording.ts';
import { warmUpOf } from '../../../config/compose/warm-up-history.ts';
import { loadValidConfig } from '../../../config/loader/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { quoteRecordAt, writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

// The restart pattern: a paper or live session records to X and warms up on X, its previous
// session's recording. The recorder moves the earlier X aside before the warm-up reads it; the
// warm-up reads it where it went, and the run is not refused as writing over its input. (A
// relative recording.path is the working directory's, history the config's: absolute paths here.)
const aTempDir = tempDirsRemovedAfterAll('keel-warm-up-restart-');

function restartConfigIn(dir: string): string {
  const file = join(dir, 'paper.yaml');
  writeFileSync(
    file,
    `mode: paper
paper: { lockstep: true }
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
recording: { path: ${join(dir, 'session.jsonl')} }
warmUp:
  period: 3m
  history: [${join(dir, 'session.jsonl')}]
`,
  );
  return file;
}

describe('a session whose warm-up history is its own recording.path', () => {
  it('is not refused as writing over its input', async () => {
    const dir = aTempDir();
    await writeRecording(join(dir, 'session.jsonl'), [quoteRecordAt(0, '99', '101')]);
    const loaded = loadValidConfig(restartConfigIn(dir));
    expect(outputCollision(runOutputFiles(loaded), runInputFiles(loaded))).toBeUndefined();
  });

  it('warms up on the earlier recording, moved aside by the recorder before the warm-up reads it', async () => {
    const dir = aTempDir();
    const path = join(dir, 'session.jsonl');
    await writeRecording(path, [quoteRecordAt(0, '99', '101'), quoteRecordAt(1_000, '98', '102')]);
    const warmUp = await warmUpOf(loadValidConfig(restartConfigIn(dir)));
    // What SessionRecorder.open does: keeps the earlier file aside and starts a new one at the path.
    expect(keepPreviousRecording(path)).toBeDefined();
    await writeRecording(path, []);
    const events: MarketEvent[] = [];
    for await (const batch of warmUp?.history ?? []) events.push(...batch);
    expect(events.map((event) => event.kind)).toEqual(['quote', 'quote']);
  });
});
