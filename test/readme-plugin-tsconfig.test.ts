import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';

// "A plugin in your own folder" gives a tsconfig.json for type checking a plugin outside the
// repository: a folder with no node_modules, so no @types/node. This type-checks a tiny plugin in
// such a folder with that tsconfig as the README prints it, so a Node-only type reaching the
// public API (`keel`, `keel/model`) fails here rather than in a user's editor.
const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The README's plugin tsconfig.json, its `/path/to/keel` made this checkout. */
function readmePluginTsconfig(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const json = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .filter((block) => block.includes('"keel/model"'));
  expect(json).toHaveLength(1);
  return (json[0] ?? '').replaceAll('/path/to/keel', root);
}

const plugin = `import Decimal from 'decimal.js';
import { defineStrategy } from 'keel';
import type { BarEvent } from 'keel/model';
import { map } from 'rxjs';
import { SMA } from 'trading-signals';
import { z } from 'zod';

export default defineStrategy({
  name: 'readme-plugin',
  params: z.object({ sym: z.string() }),
  state: () => ({ last: [] as BarEvent[], sma: new SMA(3), min: new Decimal('0.1') }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => {
    ctx.state.last.push(bar);
    ctx.state.sma.add(bar.close);
    void map((x: number) => x + 1);
    if (ctx.netQty(bar.sym).gt(ctx.state.min)) return;
  },
});
`;

describe('README plugin tsconfig.json', () => {
  it('type-checks a plugin importing keel, keel/model and the four shared libraries in a folder without node_modules', () => {
    dir = mkdtempSync(join(tmpdir(), 'keel-plugin-tsconfig-'));
    writeFileSync(join(dir, 'tsconfig.json'), readmePluginTsconfig());
    writeFileSync(join(dir, 'breakout.ts'), plugin);
    const config = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), undefined, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    });
    expect(config?.errors ?? []).toEqual([]);
    const program = ts.createProgram({ rootNames: config?.fileNames ?? [], options: config?.options ?? {} });
    const checked = program.getSourceFiles().map((file) => file.fileName);
    expect(checked).toContain(join(root, 'core/kernel/index.ts'));
    expect(checked.some((file) => file.includes('@types/node'))).toBe(false);
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${d.file.fileName.replace(`${root}/`, '')}: ` : '';
      return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
    });
    expect(errors).toEqual([]);
  }, 120_000);
});
