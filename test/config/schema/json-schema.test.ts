import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_REFERENCE_FILE,
  configReferenceMarkdown,
  JSON_SCHEMA_FILE,
  keelJsonSchemaText,
  normalizeMarkdownTables,
} from '../../../config/schema/index.ts';

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

describe('generated configuration reference', () => {
  it('matches the committed config/CONFIG-REFERENCE.md (run npm run schema after a schema change)', () => {
    const committed = normalizeMarkdownTables(readFileSync(CONFIG_REFERENCE_FILE, 'utf8'));
    expect(committed).toBe(normalizeMarkdownTables(configReferenceMarkdown()));
  });

  it('has one row per key, with the required ones marked', () => {
    const text = configReferenceMarkdown();
    expect(text).toContain('| `mode` | "live" \\| "paper" \\| "backtest" | yes |');
    expect(text).toContain('| `backtest.startingCash.<key>` | decimal |');
    expect(text).toContain('| `strategies[].use` | string | yes |');
  });

  it("states a number's bounds with its type, as the loader applies them, and no integer's safe limits", () => {
    const text = configReferenceMarkdown();
    expect(text).toContain('| `venue.privatePingMs` | integer, 1000 to 25000 |');
    expect(text).toContain('| `venue.marketDataSilentPings` | integer, >= 2 |');
    expect(text).toContain('| `risk.priceBand` | number, > 0 and < 1 |');
    expect(text).toContain('| `backtest.fees.takerBps` | number, 0 to 1000 | yes |');
    expect(text).not.toMatch(/9007199254740991/);
  });
});
