import type { RunMode } from '../schema/index.ts';

/** The top-level sections that apply to some modes only, with the modes they apply to. */
export const SECTION_MODES: Readonly<Record<string, readonly RunMode[]>> = {
  backtest: ['backtest'],
  paper: ['paper'],
  venue: ['live', 'paper'],
  recording: ['live', 'paper'],
  shutdown: ['live', 'paper'],
  // The venue session and `keel record` (live and paper configs only) serve metrics and log at
  // the level.
  metrics: ['live', 'paper'],
  logging: ['live', 'paper'],
};
