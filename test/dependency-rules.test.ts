import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// Proves `npm run deps` (part of `npm test`) fails the build when a layering rule of
// ARCHITECTURE.md is broken: the real rule file is run by the real depcruise on tiny trees.
const root = fileURLToPath(new URL('..', import.meta.url));
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function cruise(files: Record<string, string>): { status: number | null; output: string } {
  dir = mkdtempSync(join(tmpdir(), 'keel-deps-'));
  copyFileSync(join(root, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        allowImportingTsExtensions: true,
        noEmit: true,
        strict: true,
      },
    }),
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const tops = [...new Set(Object.keys(files).map((path) => path.split('/')[0]!))];
  const run = spawnSync(depcruise, [...tops, '--config', '.dependency-cruiser.cjs'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('dependency rules', () => {
  it('pass a tree that follows ARCHITECTURE.md', () => {
    const result = cruise({
      'core/model/index.ts': 'export const price = 1;\n',
      'core/risk/index.ts': "import { price } from '../model/index.ts';\nexport const limit = price;\n",
      'backtest/sim/index.ts':
        "import { limit } from '../../core/risk/index.ts';\nexport const sim = limit;\n",
    });
    expect(result.output).toContain('no dependency violations');
    expect(result.status).toBe(0);
  });

  it('fail when core/model imports backtest/', () => {
    const result = cruise({
      'core/model/a.ts': "import { b } from '../../backtest/b.ts';\nexport const a = b;\n",
      'backtest/b.ts': 'export const b = 1;\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('model-imports-nothing-of-ours');
    expect(result.output).toContain('core-stays-core');
  });

  it('fail when backtest/sim imports core/venue', () => {
    const result = cruise({
      'backtest/sim/index.ts':
        "import { wire } from '../../core/venue/index.ts';\nexport const sim = wire;\n",
      'core/venue/index.ts': 'export const wire = 1;\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('venue-only-from-config-and-paper-venue');
  });

  it("fail when a folder reaches into another folder's private file", () => {
    const result = cruise({
      'core/model/order.ts': 'export const order = 1;\n',
      'core/model/index.ts': "export { order } from './order.ts';\n",
      'core/risk/index.ts': "import { order } from '../model/order.ts';\nexport const risk = order;\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('folders-expose-index-only');
  });
});
