import { describe, expect, it } from 'vitest';
import { startUpFailure } from '../../../config/compose/start-up-failure.ts';

describe('startUpFailure', () => {
  it('names who failed to start, what failed and why', () => {
    expect(startUpFailure('keel record', 'cannot open its recording', new Error('EACCES'))).toBe(
      'keel record failed to start: cannot open its recording (EACCES)',
    );
  });

  it('says what failed once when the error says the same', () => {
    expect(startUpFailure('the live session', 'interrupted', 'interrupted')).toBe(
      'the live session failed to start: interrupted',
    );
  });
});
