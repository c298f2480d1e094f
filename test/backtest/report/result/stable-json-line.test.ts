import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownedRecordLine, stableJsonLine, withOwner } from '../../../../backtest/report/index.ts';
import { stableJsonLineWith } from '../../../../backtest/report/result/stable-json-line.ts';
import { D } from '../../../../core/model/index.ts';
import { anExecution } from '../../../kit/execution-builders.ts';
import { anOrder } from '../../../kit/order-builders.ts';

/**
 * The same value with every object's keys inserted sorted (JS itself lists integer keys first,
 * ascending), Decimals as their exact plain strings and -0 as 0.
 */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (D.isDecimal(value)) return (value as InstanceType<typeof D>).toFixed();
  if (Object.is(value, -0)) return 0;
  if (value === null || typeof value !== 'object') return value;
  // fromEntries keeps a "__proto__" key as an own property, as JSON.parse does.
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedCopy((value as Record<string, unknown>)[key])]),
  );
}

describe('stable JSON lines', () => {
  it('are JSON.stringify of the key-sorted value, for any JSON value and any string (escapes, lone surrogates)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        expect(stableJsonLine(value)).toBe(JSON.stringify(sortedCopy(value)));
      }),
      { numRuns: 2000 },
    );
  });

  it('write records of Decimals, numbers, nested objects and absent fields as the key-sorted value', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 30 }))
      .map(([units, scale]) => D(units.toString()).div(D(10).pow(scale)));
    const scalar = fc.oneof(
      decimal,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const field = fc.oneof(
      { weight: 5, arbitrary: scalar },
      { weight: 1, arbitrary: fc.dictionary(fc.string(), scalar) },
      { weight: 1, arbitrary: fc.array(fc.dictionary(fc.string(), scalar)) },
    );
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), field), { minLength: 1, maxLength: 5 }), (records) => {
        for (const record of records) expect(stableJsonLine(record)).toBe(JSON.stringify(sortedCopy(record)));
      }),
      { numRuns: 1000 },
    );
  });

  it('sort each shape on its own, however many objects with the same number of keys came before', () => {
    const keys = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', '0', '10', '2'), {
      minLength: 3,
      maxLength: 3,
    });
    fc.assert(
      fc.property(fc.array(keys, { minLength: 1, maxLength: 40 }), (shapes) => {
        for (const shape of shapes) {
          const value = Object.fromEntries(shape.map((k, i) => [k, i]));
          expect(stableJsonLine(value)).toBe(JSON.stringify(sortedCopy(value)));
        }
      }),
    );
  });

  it('with a field set from outside, are the lines of the copy with that field, whether the object had it or not', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', '0', '10', '2', 'strategyId');
    const scalar = fc.oneof(
      fc.integer(),
      fc.string(),
      fc.constant(undefined),
      fc.integer().map((n) => D(n).div(7)),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.dictionary(key, scalar), key, scalar), { minLength: 1, maxLength: 20 }),
        (cases) => {
          for (const [value, k, field] of cases)
            expect(stableJsonLineWith(value, k, field)).toBe(stableJsonLine({ ...value, [k]: field }));
        },
      ),
    );
  });

  it('write an owned order or fill as the record copied with its owner', () => {
    const fill = anExecution({ side: 'BUY', quantity: '0.01', price: '94999.8', timestamp: 1, fee: '0.19' });
    for (const record of [anOrder(), { ...anOrder(), strategyId: 'old' }, fill])
      expect(ownedRecordLine(record, 'mm')).toBe(stableJsonLine(withOwner(record, 'mm')));
  });

  it('quote ids as they are and escape what JSON must escape', () => {
    expect(stableJsonLine({ id: 'SIM-O-1', note: 'say "hi"\\\n\u0001', dec: D('-0.50') })).toBe(
      '{"dec":"-0.5","id":"SIM-O-1","note":"say \\"hi\\"\\\\\\n\\u0001"}',
    );
    expect(stableJsonLine(['\ud83d', 'a\udc00b', '\ud83d\ude00'])).toBe(
      '["\\ud83d","a\\udc00b","\ud83d\ude00"]',
    );
  });

  it('write a line asked for while another is being written (a field read that writes one) as its own line', () => {
    const inner = { b: D('1.50'), a: 'x' };
    let innerLine = '';
    const outer = {
      z: 1,
      get y() {
        innerLine = stableJsonLine(inner);
        return 'read';
      },
      x: [1, 2, 3],
    };
    expect(stableJsonLine(outer)).toBe('{"x":[1,2,3],"y":"read","z":1}');
    expect(innerLine).toBe('{"a":"x","b":"1.5"}');
    // A long line, then a short one: nothing of the first is left in the second.
    expect(stableJsonLine({ many: Array.from({ length: 500 }, (_, i) => i) })).toBe(
      `{"many":[${Array.from({ length: 500 }, (_, i) => i).join(',')}]}`,
    );
    expect(stableJsonLine({ one: 1 })).toBe('{"one":1}');
  });

  it('write only the own fields of an object whose prototype lists keys, whatever plain shapes came before', () => {
    // 23 keys: a shape count no earlier test fills up (shapes are remembered per key count).
    const keys = Array.from({ length: 23 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    const plain = Object.fromEntries(keys.map((k, i) => [k, i]));
    expect(stableJsonLine(plain)).toBe(JSON.stringify(plain));
    const withInherited = Object.create({ [keys[22] as string]: 22 }) as Record<string, number>;
    for (const [i, k] of keys.slice(0, 22).entries()) withInherited[k] = i;
    expect(stableJsonLine(withInherited)).toBe(
      JSON.stringify(Object.fromEntries(Object.entries(withInherited))),
    );
  });
});
