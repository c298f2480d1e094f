import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEventBatches, type SessionHeader } from '../backtest/recording/index.ts';
import { formatReplaySummary, summarizeReplay } from '../backtest/replay-summary.ts';
import {
  EXAMPLE_SESSION_FILE,
  EXAMPLE_SESSION_OPTIONS,
  writeSyntheticSession,
} from '../backtest/synthetic/index.ts';
import { decodeSessionRecord } from './session-decoder.ts';

// `npm start`, for now: generate the example SYNTHETIC session if absent, replay it through the
// recording reader and the venue's decoders, and print what it holds.
const path = fileURLToPath(new URL(`../backtest/sessions/${EXAMPLE_SESSION_FILE}`, import.meta.url));
const shown = relative(process.cwd(), path);
if (!existsSync(path)) {
  process.stdout.write(`Generating the example synthetic session ${shown} ...\n`);
  await writeSyntheticSession(path, EXAMPLE_SESSION_OPTIONS);
}
let header: SessionHeader | undefined;
const summary = await summarizeReplay(
  readEventBatches(path, decodeSessionRecord, {
    onHeader: (h) => {
      header = h;
    },
  }),
  { now: () => performance.now() },
);
const kind = header?.synthetic ? 'SYNTHETIC session' : 'recorded session';
process.stdout.write(
  formatReplaySummary(
    summary,
    `Keel replay of ${shown} (${kind}, venue: ${header?.venue ?? '?'})\n  ${header?.description ?? ''}`,
  ),
);
