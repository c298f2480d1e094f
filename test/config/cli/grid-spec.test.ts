import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridCombinations, overrideOnGridAxis, parseGridAxis } from '../../../config/cli/index.ts';
import { unsetOverride } from '../../../config/loader/index.ts';

describe('sweep grid', () => {
  it('parses an axis into its path and values', () => {
    expect(parseGridAxis('strategies.0.params.fast=5,10,20')).toEqual({
      path: ['strategies', 0, 'params', 'fast'],
      values: ['5', '10', '20'],
    });
  });

  it('expands from..to[:step] ranges, inclusive and in decimal, next to plain values', () => {
    expect(parseGridAxis('strategies.0.params.fast=5..30:5').values).toEqual([
      '5',
      '10',
      '15',
      '20',
      '25',
      '30',
    ]);
    expect(parseGridAxis('a=2,5..7').values).toEqual(['2', '5', '6', '7']);
    expect(parseGridAxis('a=0.1..0.3:0.1').values).toEqual(['0.1', '0.2', '0.3']);
    // The end is included only when a step lands on it.
    expect(parseGridAxis('a=1..10:4').values).toEqual(['1', '5', '9']);
    expect(parseGridAxis('a=-2..-1:0.5').values).toEqual(['-2', '-1.5', '-1']);
  });

  it('refuses a range with a step of 0, one ending below its start, or one too long', () => {
    expect(() => parseGridAxis('a=1..5:0')).toThrow('--grid a=1..5:0: the range 1..5:0 has a step of 0');
    expect(() => parseGridAxis('a=5..1')).toThrow('the range 5..1 ends below where it starts');
    expect(() => parseGridAxis('a=1..1000000')).toThrow('has 1000000 values, more than the 10000 allowed');
  });

  it('reads a range bound written with an exponent, so an oversized one is refused by its size, not taken for a string', () => {
    expect(() => parseGridAxis('a=1..1e9:1')).toThrow(
      '--grid a=1..1e9:1: the range 1..1e9:1 has 1000000000 values, more than the 10000 allowed',
    );
    expect(parseGridAxis('a=1e3..1.002e3').values).toEqual(['1000', '1001', '1002']);
  });

  it('gives every decimal step of a range exactly: from, from + step, ... up to to', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -500, max: 500 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 0, max: 3 }),
        (from, span, step, places) => {
          const scale = 10 ** places;
          const text = (n: number): string => (n / scale).toFixed(places);
          const values = parseGridAxis(`a=${text(from)}..${text(from + span)}:${text(step)}`).values;
          const expected = Array.from({ length: Math.floor(span / step) + 1 }, (_, k) => from + k * step);
          expect(values.map(Number)).toEqual(expected.map((n) => n / scale));
          expect(values.every((v) => !/e|0{6,}\d/.test(v))).toBe(true);
        },
      ),
    );
  });

  it('refuses axes without values, with empty values, or with lists', () => {
    expect(() => parseGridAxis('a.b')).toThrow('no "=" found');
    expect(() => parseGridAxis('a.b=1,,2')).toThrow('has an empty value');
    expect(() => parseGridAxis('a.b=[1')).toThrow();
  });

  it('yields the product of the axes, each combination once, first axis slowest', () => {
    const axes = [parseGridAxis('a=1,2'), parseGridAxis('b=x,y,z')];
    expect(gridCombinations(axes)).toEqual([
      ['a=1', 'b=x'],
      ['a=1', 'b=y'],
      ['a=1', 'b=z'],
      ['a=2', 'b=x'],
      ['a=2', 'b=y'],
      ['a=2', 'b=z'],
    ]);
  });

  it('has as many combinations as the product of axis sizes, all distinct', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }), (sizes) => {
        const axes = sizes.map((size, i) => ({
          path: [`k${i}`],
          values: Array.from({ length: size }, (_, v) => `${v}`),
        }));
        const combinations = gridCombinations(axes);
        expect(combinations).toHaveLength(sizes.reduce((a, b) => a * b, 1));
        expect(new Set(combinations.map((c) => c.join(' '))).size).toBe(combinations.length);
      }),
    );
  });

  it('refuses a grid over the limit, saying how to raise it, and takes one up to a raised limit', () => {
    const axes = [parseGridAxis('a=1..101'), parseGridAxis('b=1..100')];
    expect(() => gridCombinations(axes)).toThrow(
      'the grid has 10100 combinations, more than the 10000 allowed (--max-combinations raises the limit)',
    );
    expect(gridCombinations(axes, 10_100)).toHaveLength(10_100);
    expect(() => gridCombinations(axes, 10_099)).toThrow('more than the 10099 allowed');
    expect(() => parseGridAxis('a=1..10001')).toThrow(
      'has 10001 values, more than the 10000 allowed (--max-combinations raises the limit)',
    );
    expect(parseGridAxis('a=1..10001', 10_001).values).toHaveLength(10_001);
  });

  it('refuses the same path on two axes', () => {
    expect(() => gridCombinations([parseGridAxis('a=1,2'), parseGridAxis('a=3')])).toThrow('names a twice');
  });

  it('refuses a --set, --from or --to on the path of a grid axis, however the path is written', () => {
    const axes = [
      parseGridAxis('strategies.0.params.fast=5,8'),
      parseGridAxis('backtest.from=2025-01-06T14:35:00Z'),
    ];
    expect(overrideOnGridAxis(['strategies[0].params.fast=3'], axes)).toBe(
      "--set strategies[0].params.fast=3 and --grid strategies.0.params.fast=... both set strategies.0.params.fast (the grid's values would run); give its values in the --grid alone",
    );
    expect(overrideOnGridAxis([{ set: 'backtest.from=1', shownAs: '--from 1' }], axes)).toMatch(
      /^--from 1 and --grid backtest\.from=\.\.\. both set backtest\.from /,
    );
    // Other paths, a longer one sharing the prefix, and malformed --sets (the loader names those) pass.
    expect(
      overrideOnGridAxis(
        ['strategies.0.params.slow=9', 'strategies.0.params.fastx=1', 'nonsense', '=1'],
        axes,
      ),
    ).toBeUndefined();
  });

  it("lets an --unset of a grid axis's path pass: the grid's value is set after it", () => {
    const axes = [parseGridAxis('strategies.0.params.fast=5,8')];
    expect(overrideOnGridAxis([unsetOverride('strategies.0.params.fast')], axes)).toBeUndefined();
  });
});

describe('sweep grid values given twice', () => {
  it('run once, in the order first given, and are named so the user hears of it', () => {
    expect(parseGridAxis('a=3,3,3')).toEqual({ path: ['a'], values: ['3'], repeated: ['3', '3'] });
    // 3.0 is the YAML number 3: it would run the same backtest.
    expect(parseGridAxis('a=3,5,3.0,1..5:2')).toEqual({
      path: ['a'],
      values: ['3', '5', '1'],
      repeated: ['3.0', '3', '5'],
    });
    expect(parseGridAxis('a=touch,Touch').values).toEqual(['touch', 'Touch']);
  });

  it("says a range's step must be positive when it is negative", () => {
    expect(() => parseGridAxis('a=1..5:-1')).toThrow(
      "--grid a=1..5:-1: the range 1..5:-1 has a step of -1; a range's step must be positive",
    );
  });
});
