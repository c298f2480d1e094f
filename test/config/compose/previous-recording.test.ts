import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepPreviousRecording } from '../../../config/compose/previous-recording.ts';

describe('keeping an earlier session recording', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-kept-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const written = (name: string, text: string, modified: Date): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    utimesSync(path, modified, modified);
    return path;
  };

  it('moves it to a name stamped with its last write (UTC), extension kept, content untouched', () => {
    const path = written('paper-session.jsonl.gz', 'earlier', new Date(Date.UTC(2026, 10, 28, 19, 30, 12)));
    const kept = keepPreviousRecording(path);
    expect(kept).toBe(join(dir, 'paper-session.20261128T193012Z.jsonl.gz'));
    expect(existsSync(path)).toBe(false);
    expect(readFileSync(kept as string, 'utf8')).toBe('earlier');
  });

  it('numbers the name when two earlier recordings were written in the same second', () => {
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    const first = keepPreviousRecording(written('s.jsonl', 'one', at));
    const second = keepPreviousRecording(written('s.jsonl', 'two', at));
    const third = keepPreviousRecording(written('s.jsonl', 'three', at));
    expect([first, second, third]).toEqual([
      join(dir, 's.20260102T030405Z.jsonl'),
      join(dir, 's.20260102T030405Z-2.jsonl'),
      join(dir, 's.20260102T030405Z-3.jsonl'),
    ]);
    expect(readFileSync(third as string, 'utf8')).toBe('three');
  });

  it('keeps nothing when there is no file or only an empty one', () => {
    expect(keepPreviousRecording(join(dir, 'none.jsonl'))).toBeUndefined();
    const empty = written('empty.jsonl', '', new Date());
    expect(keepPreviousRecording(empty)).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['empty.jsonl']);
  });

  it('stamps a name without a recording extension at its end', () => {
    const path = written('capture', 'x', new Date(Date.UTC(2025, 5, 6, 7, 8, 9)));
    expect(keepPreviousRecording(path)).toBe(join(dir, 'capture.20250606T070809Z'));
  });
});
