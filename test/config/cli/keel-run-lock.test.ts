import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { keelChild, paperRunUntilFirstFill, reportOutputFlags } from '../../kit/keel-child-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-run-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keel run of one config twice at once', () => {
  it('refuses the second run with 2, naming the first, and lets the first finish and free its lock', async () => {
    const first = await paperRunUntilFirstFill(dir, 'locked');
    const second = keelChild([
      'run',
      'config/examples/market-maker-paper.yaml',
      '--set',
      `recording.path=${join(dir, 'second.jsonl.gz')}`,
      ...reportOutputFlags(dir, 'locked'),
    ]);
    expect(second.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(second.stderr).toContain(`another Keel run (pid ${first.child.pid},`);
    expect(existsSync(join(dir, 'second.jsonl.gz'))).toBe(false);
    const code = await new Promise<number | null>((done) => {
      first.child.once('exit', (c) => done(c));
      first.child.kill('SIGINT');
    });
    expect(code).toBe(EXIT.INTERRUPTED);
    expect(existsSync(join(dir, 'locked-result.json'))).toBe(true);
    expect(existsSync(join(dir, 'locked-result.json.lock'))).toBe(false);
  }, 90_000);
});
