import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { substituteText } from '../../../config/loader/index.ts';

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/);
const plain = fc.string({ maxLength: 30 }).filter((text) => !text.includes('$'));

describe(`\${VAR} substitution`, () => {
  it('leaves text without "$" unchanged', () => {
    fc.assert(
      fc.property(plain, (text) => {
        expect(substituteText(text, {})).toEqual({ text, references: 0 });
      }),
    );
  });

  it('puts each variable value in place of its reference, whatever the value holds', () => {
    fc.assert(
      fc.property(
        plain,
        name,
        fc.string({ minLength: 1, maxLength: 20 }),
        plain,
        (before, variable, value, after) => {
          const result = substituteText(`${before}\${${variable}}${after}`, { [variable]: value });
          expect(result).toEqual({ text: `${before}${value}${after}`, references: 1 });
        },
      ),
    );
  });

  it(`writes $\${ as a literal \${ and never substitutes inside it`, () => {
    expect(substituteText(`$\${HOME}`, { HOME: '/root' })).toEqual({ text: `\${HOME}`, references: 0 });
  });

  it('names an unset, empty or malformed reference', () => {
    expect(substituteText(`\${NOPE}`, {})).toEqual({
      problem: `refers to \${NOPE}, which is not set (environment or .env)`,
    });
    expect(substituteText(`\${EMPTY}`, { EMPTY: '' })).toEqual({
      problem: `refers to \${EMPTY}, which is empty (environment or .env)`,
    });
    expect(substituteText(`\${1X}`, {})).toEqual({
      problem: `refers to \${1X}, which is not a variable name (letters, digits and _)`,
    });
    expect(substituteText(`abc \${X`, {})).toEqual({ problem: `has a "\${" without a closing "}"` });
  });

  it(`falls back to the default of \${VAR:-default} when unset or empty`, () => {
    expect(substituteText(`\${A:-x}/\${B:-y}`, { B: '' })).toEqual({ text: 'x/y', references: 2 });
    expect(substituteText(`\${A:-x}`, { A: 'set' })).toEqual({ text: 'set', references: 1 });
  });
});
