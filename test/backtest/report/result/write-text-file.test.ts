import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  writeResultFiles,
  writeTextFile,
  writeTextFilesTogether,
} from '../../../../backtest/report/index.ts';
import { aBacktestResult, aResultFailingAtItsLastFile } from '../../../kit/backtest-result-builders.ts';
import { tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-write-text-');

/** Text pieces that fail after the first, as a run stopped while writing does. */
function* failingAfterFirst(): Generator<string> {
  yield 'new start\n';
  throw new Error('stopped while writing');
}

describe('writing result files', () => {
  it('replaces a file whole or leaves the previous one as it was', async () => {
    const path = join(aTempDir(), 'result.json');
    await writeFile(path, 'previous\n');
    await expect(writeTextFile(path, failingAfterFirst())).rejects.toThrow('stopped while writing');
    expect(await readFile(path, 'utf8')).toBe('previous\n');
    await writeTextFile(path, ['a', 'b\n']);
    expect(await readFile(path, 'utf8')).toBe('ab\n');
  });

  it('names the file and the reason when a directory stands at its temporary name, leaving the previous file', async () => {
    const dir = aTempDir();
    const path = join(dir, 'table.csv');
    await writeFile(path, 'previous\n');
    await mkdir(join(dir, `.table.csv.${process.pid}.partial`));
    await expect(writeTextFile(path, ['new\n'])).rejects.toThrow(/^cannot write .*table\.csv: EISDIR/);
    expect(await readFile(path, 'utf8')).toBe('previous\n');
  });

  it("keeps the previous result's files together when one of the new ones cannot be written", async () => {
    const dir = aTempDir();
    const previous = aBacktestResult();
    await writeResultFiles(previous, dir);
    const before = await readFile(join(dir, 'result.json'), 'utf8');
    const broken = aResultFailingAtItsLastFile();
    await expect(writeResultFiles(broken, dir)).rejects.toThrow('stopped while writing');
    expect(await readFile(join(dir, 'result.json'), 'utf8')).toBe(before);
    expect((await readdir(dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('stops when its signal aborts (Ctrl-C while writing): no file replaced, no partial file left', async () => {
    const dir = aTempDir();
    const [first, second, third] = ['result.json', 'trades.csv', 'report.html'].map((name) =>
      join(dir, name),
    );
    await writeFile(first as string, 'previous\n');
    const controller = new AbortController();
    function* abortingAfterFirstPiece(): Generator<string> {
      yield 'trade\n';
      controller.abort();
      yield 'trade\n';
    }
    await expect(
      writeTextFilesTogether(
        [
          [first as string, ['new\n']],
          [second as string, abortingAfterFirstPiece()],
          [third as string, ['<html>']],
        ],
        controller.signal,
      ),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(await readFile(first as string, 'utf8')).toBe('previous\n');
    expect((await readdir(dir)).sort()).toEqual(['result.json']);
  });

  it('stages under a hidden name naming the process, and removes what killed runs left for the file', async () => {
    const dir = aTempDir();
    const path = join(dir, 'r.json');
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid as number;
    const leftByKilledRuns = [`.r.json.${deadPid}.partial`, 'r.json.partial'];
    const stillWriting = `.r.json.${process.ppid}.partial`;
    const otherFile = `.r.html.${deadPid}.partial`;
    for (const name of [...leftByKilledRuns, stillWriting, otherFile])
      await writeFile(join(dir, name), 'cut');
    let whileWriting: string[] = [];
    function* watched(): Generator<string> {
      yield '{}';
      whileWriting = readdirSync(dir).sort();
      yield '\n';
    }
    await writeTextFile(path, watched());
    expect(whileWriting).toEqual([otherFile, stillWriting, `.r.json.${process.pid}.partial`].sort());
    expect((await readdir(dir)).sort()).toEqual([otherFile, stillWriting, 'r.json'].sort());
    expect(await readFile(path, 'utf8')).toBe('{}\n');
  });

  it('removes the previous versions a run killed while committing its files kept, of that file only', async () => {
    const dir = aTempDir();
    const path = join(dir, 'r.json');
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid as number;
    const keptByKilledRun = `.r.json.${deadPid}.previous`;
    const keptWhileCommitting = `.r.json.${process.ppid}.previous`;
    const otherFile = `.r.html.${deadPid}.previous`;
    for (const name of [keptByKilledRun, keptWhileCommitting, otherFile])
      await writeFile(join(dir, name), 'old');
    await writeTextFile(path, ['{}\n']);
    expect((await readdir(dir)).sort()).toEqual([otherFile, keptWhileCommitting, 'r.json'].sort());
  });
});
