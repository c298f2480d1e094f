import { describe, expect, it } from 'vitest';
import { RecordingDamage, type RecordingWarning } from '../../../backtest/recording/index.ts';

function skipped(file: string, line: number, kind: RecordingWarning['kind'] = 'not-json'): RecordingWarning {
  return {
    file,
    line,
    kind,
    reason: `bad ${line}`,
    message: `${file}:${line}: skipped a malformed line: bad ${line}`,
  };
}

describe('recording damage', () => {
  it('counts skipped lines per recording and kind, and tells the first of each kind once', () => {
    const told: string[] = [];
    const damage = new RecordingDamage((warning) => told.push(warning.message));
    for (const line of [4, 9, 12]) damage.note(skipped('a.jsonl', line));
    damage.note(skipped('a.jsonl', 20, 'undecodable'));
    damage.note(skipped('b.jsonl', 3));
    expect(told).toEqual([
      'a.jsonl:4: skipped a malformed line: bad 4',
      'a.jsonl:20: skipped a malformed line: bad 20',
      'b.jsonl:3: skipped a malformed line: bad 3',
    ]);
    expect(damage.skippedIn('a.jsonl')).toEqual([
      { kind: 'not-json', count: 3, first: { line: 4, reason: 'bad 4' } },
      { kind: 'undecodable', count: 1, first: { line: 20, reason: 'bad 20' } },
    ]);
    expect(damage.warnings(['b.jsonl', 'a.jsonl'])).toEqual([
      'recording b.jsonl: skipped 1 line (not JSON) at b.jsonl:3: bad 3; the run went on without its data',
      'recording a.jsonl: skipped 3 lines (not JSON), the first at a.jsonl:4: bad 4; the run went on without their data',
      'recording a.jsonl: skipped 1 line (a message Keel does not decode) at a.jsonl:20: bad 20; the run went on without its data',
    ]);
  });

  it('does not count again the lines a restarted reader reads a second time', () => {
    const damage = new RecordingDamage();
    damage.note(skipped('a.jsonl', 4));
    // A preview stopped here; the session's own read starts over from the top.
    for (const line of [4, 9]) damage.note(skipped('a.jsonl', line));
    expect(damage.skippedIn('a.jsonl')).toEqual([
      { kind: 'not-json', count: 2, first: { line: 4, reason: 'bad 4' } },
    ]);
  });

  it('takes back what an event cache kept, so a cached run warns as a fresh one', () => {
    const fresh = new RecordingDamage();
    for (const line of [4, 9]) fresh.note(skipped('a.jsonl', line));
    const told: number[] = [];
    const cached = new RecordingDamage((warning) => told.push(warning.line));
    cached.restore('a.jsonl', fresh.skippedIn('a.jsonl'));
    expect(cached.warnings(['a.jsonl'])).toEqual(fresh.warnings(['a.jsonl']));
    expect(told).toEqual([4]);
  });

  it('counts a recording once when its cache is restored twice or after a reader noted part of it', () => {
    const fresh = new RecordingDamage();
    for (const line of [4, 9, 12]) fresh.note(skipped('a.jsonl', line));
    fresh.note(skipped('a.jsonl', 20, 'undecodable'));
    const whole = fresh.skippedIn('a.jsonl');
    const told: number[] = [];
    // One file listed twice in a run, both listings served by its cache.
    const twice = new RecordingDamage((warning) => told.push(warning.line));
    twice.restore('a.jsonl', whole);
    twice.restore('a.jsonl', whole);
    expect(twice.skippedIn('a.jsonl')).toEqual(whole);
    expect(told).toEqual([4, 20]);
    // One listing read from the file up to line 9, the other then served by the cache.
    const mixed = new RecordingDamage();
    for (const line of [4, 9]) mixed.note(skipped('a.jsonl', line));
    mixed.restore('a.jsonl', whole);
    for (const line of [12]) mixed.note(skipped('a.jsonl', line));
    expect(mixed.skippedIn('a.jsonl')).toEqual(whole);
  });

  it('ignores the repairs a writer reports', () => {
    const damage = new RecordingDamage();
    damage.note(skipped('a.jsonl', 0, 'repaired'));
    expect(damage.warnings(['a.jsonl'])).toEqual([]);
  });
});
