import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridCombinations, parseGridAxis } from '../../../config/cli/index.ts';

describe('sweep grid', () => {
  it('parses an axis into its path and values', () => {
    expect(parseGridAxis('strategies.0.params.fast=5,10,20')).toEqual({
      path: ['strategies', 0, 'params', 'fast'],
      values: ['5', '10', '20'],
    });
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

  it('refuses the same path on two axes', () => {
    expect(() => gridCombinations([parseGridAxis('a=1,2'), parseGridAxis('a=3')])).toThrow('names a twice');
  });
});
