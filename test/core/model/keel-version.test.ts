import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEEL_VERSION } from '../../../core/model/index.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';

describe('the Keel version', () => {
  it("is package.json's, and `keel --version` prints it", async () => {
    const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(KEEL_VERSION).toBe(packageJson.version);
    expect(KEEL_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const out = await keelInProcess(['--version']);
    expect(out.stdout.trim()).toBe(KEEL_VERSION);
  });
});
