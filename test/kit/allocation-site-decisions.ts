import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The pretenuring decisions V8 takes while a script runs in a fresh Node process: one line per
 * allocation site it moves towards allocating in the old generation (`=> maybe tenure`,
 * `=> tenure`), as `--trace-pretenuring-statistics` prints them. Only object and array literals
 * have allocation sites; objects made by a constructor have none, so a script that makes its
 * objects that way prints no decision however long they live.
 * @param body - the script's statements (TypeScript, run by tsx); `repo(path)` gives the file
 *   URL of a repository file to import
 * @returns the decision lines
 */
export function pretenuringDecisions(body: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'keel-pretenuring-'));
  try {
    const script = join(dir, 'script.mts');
    const root = pathToFileURL(resolve('.')).href;
    writeFileSync(script, `const repo = (path: string): string => '${root}/' + path;\n${body}\n`);
    const child = spawnSync(process.execPath, ['--trace-pretenuring-statistics', '--import', 'tsx', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (child.status !== 0) throw new Error(`pretenuring script failed: ${child.stderr}`);
    return child.stdout.split('\n').filter((line) => /=> (maybe tenure|tenure)/.test(line));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The decisions for a control script that keeps 600,000 plain object literals alive: V8 must
 * print some (the literal's site moves towards tenuring). A test asserting that a script prints
 * none checks this first, so it cannot pass on a V8 that words or prints its trace otherwise.
 * @returns the decision lines of the control
 */
export function literalControlDecisions(): string[] {
  return pretenuringDecisions(`
    const held = [];
    for (let i = 0; i < 600_000; i++) held.push({ id: i, side: 'BUY', qty: i * 2 });
    console.error(held.length);
  `);
}
