import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../../config/loader/utf8-text.ts';

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
const join = (...parts: (Uint8Array | number[])[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => [...p]));

describe('reading a config file as UTF-8', () => {
  it('gives back any UTF-8 text unchanged, a byte order mark included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(decodeUtf8(bytesOf(text))).toEqual({ ok: true, text });
      }),
    );
    expect(decodeUtf8(bytesOf('\uFEFFmode: paper'))).toEqual({ ok: true, text: '\uFEFFmode: paper' });
  });

  it('locates the first byte that is not UTF-8 after any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.constantFrom(0xff, 0xfe, 0x80, 0xc0), (text, byte) => {
        const lines = text.split('\n');
        const last = lines.at(-1) ?? '';
        expect(decodeUtf8(join(bytesOf(text), [byte], bytesOf('\nrest: 1')))).toEqual({
          ok: false,
          line: lines.length,
          col: [...last].length + 1,
          byte: `0x${byte.toString(16)}`,
        });
      }),
    );
  });

  it('names the lead byte of a character that a later byte broke or the file cut short', () => {
    expect(decodeUtf8(join(bytesOf('a: caf'), [0xe9], bytesOf('\n')))).toMatchObject({
      line: 1,
      col: 7,
      byte: '0xe9',
    });
    expect(decodeUtf8(join(bytesOf('é\nx'), [0xe2, 0x41]))).toMatchObject({ line: 2, col: 2, byte: '0xe2' });
    expect(decodeUtf8(join(bytesOf('x: 1\n'), [0xe2, 0x82]))).toMatchObject({
      line: 2,
      col: 1,
      byte: '0xe2',
    });
    expect(decodeUtf8(join(bytesOf('€'), [0xf0]))).toMatchObject({ line: 1, col: 2, byte: '0xf0' });
  });
});
