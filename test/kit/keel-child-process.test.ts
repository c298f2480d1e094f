import { describe, expect, it } from 'vitest';
import { keelChild } from './keel-child-process.ts';

describe('keelChild', () => {
  it('kills a child still running at its time limit and says so in its stderr, instead of waiting for it', () => {
    // Any keel command outlives 1 ms: node alone takes longer to start.
    const run = keelChild(['--help'], { timeoutMs: 1 });
    expect(run.code).toBeNull();
    expect(run.stderr).toMatch(/killed \(SIGTERM\) after 1 ms: it did not end/);
  });
});
