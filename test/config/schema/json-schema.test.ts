import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_FILE, keelJsonSchemaText } from '../../../config/schema/index.ts';

describe('generated JSON Schema', () => {
  it('matches the committed config/keel.schema.json (run npm run schema after a schema change)', () => {
    const committed: unknown = JSON.parse(readFileSync(JSON_SCHEMA_FILE, 'utf8'));
    expect(committed).toEqual(JSON.parse(keelJsonSchemaText()));
  });

  it('forbids unknown keys and lists the modes, for editor completion', () => {
    const schema = JSON.parse(keelJsonSchemaText()) as {
      additionalProperties: boolean;
      properties: { mode: { enum: string[] } };
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.mode.enum).toEqual(['live', 'paper', 'backtest']);
  });
});
