import type { SyntheticSessionOptions } from './synthetic-session.ts';

/**
 * The example session shipped in the repo (`backtest/sessions/example-synthetic.jsonl.gz`) and
 * replayed by `npm start`: 30 minutes from the US open of Monday 6 January 2025, seed 20250106.
 * SYNTHETIC data. Changing these options changes the shipped file.
 */
export const EXAMPLE_SESSION_OPTIONS: SyntheticSessionOptions = {
  seed: 20250106,
  startTime: Date.UTC(2025, 0, 6, 14, 30),
  durationMs: 30 * 60_000,
};

/** File name of the shipped example session inside `backtest/sessions/`. */
export const EXAMPLE_SESSION_FILE = 'example-synthetic.jsonl.gz';
