import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEEL_STATE_DIR_VAR } from '../../config/compose/keel-state-dir.ts';

/**
 * Vitest's global setup: points Keel's per-user state directory at a temporary one for the whole
 * run (the test workers and the keel processes they start inherit it), so no test writes into the
 * user's `~/.local/state/keel`; removed when the run ends. A test needing one of its own sets
 * `KEEL_STATE_DIR` itself.
 * @returns the teardown
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'keel-test-state-'));
  process.env[KEEL_STATE_DIR_VAR] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
