import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueSentences } from '../../../config/loader/index.ts';

function sentencesOf(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return [];
  return issueSentences(parsed.error.issues, ['params']).map((s) => `${s.path.join('.')} ${s.message}`);
}

describe('config issue sentences', () => {
  it('says a missing choice is required and names the choices, never "not undefined"', () => {
    const schema = z.object({ side: z.enum(['BUY', 'SELL']) });
    expect(sentencesOf(schema, {})).toEqual(['params.side is required: "BUY" or "SELL"']);
    expect(sentencesOf(schema, { side: 'HOLD' })).toEqual([
      'params.side must be "BUY" or "SELL", not the string "HOLD"',
    ]);
  });
});
