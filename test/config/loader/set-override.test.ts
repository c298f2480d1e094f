import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatSetPath,
  formatYamlPath,
  parseSetOverride,
  parseSetPath,
  subjectOf,
  type YamlPath,
} from '../../../config/loader/index.ts';

const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,11}$/);
const index = fc.nat({ max: 50 });
const path: fc.Arbitrary<YamlPath> = fc.array(fc.oneof(key, index), { minLength: 1, maxLength: 6 });

describe('--set path parser', () => {
  it('reads back every path it writes', () => {
    fc.assert(
      fc.property(path, (p) => {
        expect(parseSetPath(formatSetPath(p))).toEqual(p);
      }),
    );
  });

  it('reads the bracket form the error messages print', () => {
    fc.assert(
      fc.property(
        path.filter((p) => typeof p[0] === 'string'),
        (p) => {
          expect(parseSetPath(formatYamlPath(p))).toEqual(p);
        },
      ),
    );
  });

  it('refuses empty segments, empty paths and stray characters, naming the segment', () => {
    expect(() => parseSetPath('')).toThrow('the path is empty');
    expect(() => parseSetPath('a..b')).toThrow('segment 2 of "a..b" is an empty segment');
    expect(() => parseSetPath('a.b c')).toThrow('segment 2 of "a.b c" is "b c"');
    expect(() => parseSetPath('a.01')).toThrow('is "01"');
  });

  it('reads values as YAML scalars', () => {
    expect(parseSetOverride('a.b=12').value).toBe(12);
    expect(parseSetOverride('a.b=0.5').value).toBe(0.5);
    expect(parseSetOverride('a.b=true').value).toBe(true);
    expect(parseSetOverride('a.b=touch').value).toBe('touch');
    expect(parseSetOverride('a.b="12"').value).toBe('12');
    expect(parseSetOverride('a.b=x=y').value).toBe('x=y');
    expect(() => parseSetOverride('a.b')).toThrow('must look like path=value');
  });
});

describe('error subjects', () => {
  it('name the field by its last two keys with the indexes between', () => {
    expect(subjectOf(['strategies', 0, 'risk', 'maxOrderQty'])).toBe('risk.maxOrderQty');
    expect(subjectOf(['strategies', 0, 'use'])).toBe('strategies[0].use');
    expect(subjectOf(['mode'])).toBe('mode');
    expect(subjectOf(['instruments', 2])).toBe('instruments[2]');
    expect(subjectOf([])).toBe('the config');
  });
});
