import { describe, expect, it } from 'vitest';
import { instrumentSpecsOf } from '../../../config/compose/instrument-specs.ts';
import { sessionResult } from '../../../config/compose/session-result.ts';
import { aSessionRecord } from '../../kit/session-records.ts';

describe("a session result's assumptions", () => {
  it('state the session, then whatever the run adds (a paper venue serving defaulted specs)', () => {
    const instruments = instrumentSpecsOf([{ sym: 'US_EQUITY_SPY', overrides: {} }]);
    const note = 'US_EQUITY_SPY has no built-in spec: Keel’s defaults.';
    const { assumptions } = sessionResult(aSessionRecord({ instruments, assumptions: [note] })).meta;
    expect(assumptions[0]).toContain('A paper session against Keel paper venue');
    expect(assumptions.at(-1)).toBe(note);
    expect(sessionResult(aSessionRecord()).meta.assumptions).toHaveLength(2);
  });
});
