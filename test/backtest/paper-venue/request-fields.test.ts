import { describe, expect, it } from 'vitest';
import { PaperApiError } from '../../../backtest/paper-venue/index.ts';
import { positionSideOf, requiredChoice } from '../../../backtest/paper-venue/request-fields.ts';

const WHERE = 'POST /api/v1/algo/order';

/** The error a call throws, or undefined when it returns. */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('paper venue request fields', () => {
  it('takes a required choice as given', () => {
    expect(requiredChoice({ side: 'SELL' }, 'side', ['BUY', 'SELL'], WHERE)).toBe('SELL');
  });

  it('refuses a value outside the choices with 400001, naming the field and every choice', () => {
    const error = thrownBy(() =>
      requiredChoice({ conditionType: 'EQ' }, 'conditionType', ['GTE', 'LTE'], WHERE),
    );
    expect(error).toBeInstanceOf(PaperApiError);
    expect(error).toMatchObject({ code: 400001 });
    expect((error as PaperApiError).message).toContain(`${WHERE} conditionType must be GTE or LTE`);
  });

  it('refuses a missing choice as required', () => {
    expect((thrownBy(() => requiredChoice({}, 'side', ['BUY', 'SELL'], WHERE)) as Error).message).toContain(
      `${WHERE} side is required`,
    );
  });

  it('reads positionSide as NONE when absent and refuses a side the venue does not have, listing the three', () => {
    expect(positionSideOf({}, WHERE)).toBe('NONE');
    expect(positionSideOf({ positionSide: 'SHORT' }, WHERE)).toBe('SHORT');
    expect((thrownBy(() => positionSideOf({ positionSide: 'BOTH' }, WHERE)) as Error).message).toContain(
      `${WHERE} positionSide must be NONE, LONG or SHORT`,
    );
  });
});
