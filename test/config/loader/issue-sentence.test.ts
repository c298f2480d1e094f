import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueSentences } from '../../../config/loader/index.ts';

function sentencesOf(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return [];
  return issueSentences(parsed.error.issues, ['params']).map(
    (s) => `${s.path.join('.')}${s.standalone ? ':' : ''} ${s.message}`,
  );
}

describe('config issue sentences', () => {
  it('says a missing choice is required and names the choices, never "not undefined"', () => {
    const schema = z.object({ side: z.enum(['BUY', 'SELL']) });
    expect(sentencesOf(schema, {})).toEqual(['params.side is required: "BUY" or "SELL"']);
    expect(sentencesOf(schema, { side: 'HOLD' })).toEqual([
      'params.side must be "BUY" or "SELL", not the string "HOLD"',
    ]);
  });

  it("sets a schema's own sentence off from the field, and lets one that goes on from it follow", () => {
    const schema = z
      .object({ fast: z.number(), slow: z.number() })
      .refine((p) => p.fast < p.slow, { message: 'fast must be shorter than slow', path: ['fast'] })
      .refine((p) => p.slow < 100, { message: 'must be under 100', path: ['slow'] });
    expect(sentencesOf(schema, { fast: 9, slow: 8 })).toEqual([
      'params.fast: fast must be shorter than slow',
    ]);
    expect(sentencesOf(schema, { fast: 1, slow: 200 })).toEqual(['params.slow must be under 100']);
  });

  it('says a string that fails a regex must match the pattern, and names other formats', () => {
    const schema = z.object({ every: z.string().regex(/^\d+[smh]$/), mail: z.email() });
    expect(sentencesOf(schema, { every: '5 minutes', mail: 'x' })).toEqual([
      'params.every must match /^\\d+[smh]$/, not the string "5 minutes"',
      'params.mail must be a valid email, not the string "x"',
    ]);
  });

  it('says a number field given .nan or .inf must be a finite number, not "a number, not the number NaN"', () => {
    const schema = z.object({ band: z.number(), qty: z.number().int(), on: z.boolean() });
    expect(sentencesOf(schema, { band: Number.NaN, qty: Number.NEGATIVE_INFINITY, on: 7 })).toEqual([
      'params.band must be a finite number, not the YAML .nan',
      'params.qty must be a finite number, not the YAML -.inf',
      'params.on must be true or false, not the number 7',
    ]);
  });
});
