import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { D, type Intent, type StrategyIntent } from '../../../../core/model/index.ts';
import { SymCommandOrder } from '../../../../core/venue/live/sym-command-order.ts';
import { aMarketOrder, aSellStop } from '../../../kit/intent-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'BINANCE_PERP_ETH_USDT';

const place = (ref: string, sym = BTC): Intent => aMarketOrder({ ref, sym });
const cancel = (ref: string, sym = BTC): Intent => ({ kind: 'cancelOrder', ref, target: 'x', sym });
const close = (ref: string, sym = BTC): Intent => ({ kind: 'closePosition', ref, sym, positionSide: 'NONE' });
const algo = (ref: string, sym = BTC): Intent => aSellStop({ ref, sym });
const borrow = (ref: string): Intent => ({
  kind: 'borrow',
  ref,
  exchange: 'BINANCE',
  coin: 'USDT',
  amount: D('100'),
});

/** A sequencer whose sends are recorded and answered by the test. */
function rig() {
  const sent: string[] = [];
  const notSent: { ref: string; reason: string }[] = [];
  const answers = new Map<string, { answer: () => void; fail: () => void }>();
  const order = new SymCommandOrder({
    notSent: (command, reason) => notSent.push({ ref: command.intent.ref, reason }),
    logger: pino({ level: 'silent' }),
  });
  const submit = (intent: Intent) =>
    order.submit({ strategyId: 's1', intent } satisfies StrategyIntent, () => {
      sent.push(intent.ref);
      return new Promise<void>((resolve, reject) => {
        answers.set(intent.ref, { answer: resolve, fail: () => reject(new Error('lost')) });
      });
    });
  const answer = async (ref: string) => {
    answers.get(ref)?.answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const fail = async (ref: string) => {
    answers.get(ref)?.fail();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { order, sent, notSent, submit, answer, fail };
}

describe('the order of commands on a sym across the socket and REST', () => {
  it('sends at once a command with nothing unanswered before it on its sym', () => {
    const r = rig();
    r.submit(close('c1'));
    r.submit(place('p1', ETH));
    r.submit(algo('a1', ETH));
    expect(r.sent).toEqual(['c1', 'p1']);
  });

  it('sends socket commands back to back: the socket keeps their order', () => {
    const r = rig();
    r.submit(place('p1'));
    r.submit(cancel('x1'));
    r.submit(place('p2'));
    expect(r.sent).toEqual(['p1', 'x1', 'p2']);
  });

  it('holds an order behind an unanswered close on its sym, then sends the held ones in order', async () => {
    const r = rig();
    r.submit(close('c1'));
    r.submit(place('p1'));
    r.submit(place('p2'));
    expect(r.sent).toEqual(['c1']);
    await r.answer('c1');
    expect(r.sent).toEqual(['c1', 'p1', 'p2']);
  });

  it('holds a REST command behind an unanswered socket order on its sym', async () => {
    const r = rig();
    r.submit(place('p1'));
    r.submit(algo('sl'));
    r.submit(place('p2'));
    expect(r.sent).toEqual(['p1']);
    await r.answer('p1');
    expect(r.sent).toEqual(['p1', 'sl']);
    await r.answer('sl');
    expect(r.sent).toEqual(['p1', 'sl', 'p2']);
  });

  it('sends the held commands after a close whose send failed', async () => {
    const r = rig();
    r.submit(close('c1'));
    r.submit(place('p1'));
    await r.fail('c1');
    expect(r.sent).toEqual(['c1', 'p1']);
  });

  it('orders a loan with the commands of every sym', async () => {
    const r = rig();
    r.submit(place('p1', ETH));
    r.submit(borrow('b1'));
    r.submit(place('p2'));
    expect(r.sent).toEqual(['p1']);
    await r.answer('p1');
    expect(r.sent).toEqual(['p1', 'b1']);
    await r.answer('b1');
    expect(r.sent).toEqual(['p1', 'b1', 'p2']);
  });

  it('orders a close of several syms with the commands of each', async () => {
    const r = rig();
    r.submit({ kind: 'closePositions', ref: 'cc', symList: [BTC, ETH] });
    r.submit(place('p1', ETH));
    r.submit(place('p2', 'BINANCE_PERP_SOL_USDT'));
    expect(r.sent).toEqual(['cc', 'p2']);
    await r.answer('cc');
    expect(r.sent).toEqual(['cc', 'p2', 'p1']);
  });

  it('reports every held command never sent when stopped, and sends none after', async () => {
    const r = rig();
    r.submit(close('c1'));
    r.submit(place('p1'));
    r.submit(place('p2', ETH));
    r.order.stop();
    r.submit(place('p3'));
    await r.answer('c1');
    expect(r.sent).toEqual(['c1', 'p2']);
    expect(r.notSent.map((n) => n.ref)).toEqual(['p1', 'p3']);
    expect(r.notSent[0]?.reason).toBe(
      `placeOrder p1 not sent: the client stopped while it waited for closePosition c1, submitted before it on ${BTC}, to be answered (commands on a sym reach the venue in the order submitted)`,
    );
    expect(r.order.held).toBe(0);
  });

  it('tells a lockstep ack waiting for held commands once every one is sent', async () => {
    const r = rig();
    expect(r.order.idle()).toBeUndefined();
    r.submit(close('c1'));
    expect(r.order.idle()).toBeUndefined();
    r.submit(place('p1'));
    let idle = false;
    void r.order.idle()?.then(() => {
      idle = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(idle).toBe(false);
    await r.answer('c1');
    expect(r.sent).toEqual(['c1', 'p1']);
    expect(idle).toBe(true);
  });

  it('sends a command submitted while a held one is being sent (a hook reacting to its events)', async () => {
    const sent: string[] = [];
    const order = new SymCommandOrder({ notSent: () => undefined, logger: pino({ level: 'silent' }) });
    let answerClose: () => void = () => undefined;
    const submit = (intent: Intent, onSend: () => void = () => undefined) =>
      order.submit({ strategyId: 's1', intent }, () => {
        sent.push(intent.ref);
        onSend();
        return intent.ref === 'c1'
          ? new Promise<void>((resolve) => {
              answerClose = resolve;
            })
          : new Promise<void>(() => undefined);
      });
    submit(close('c1'));
    submit(place('p1'), () => submit(place('p2')));
    answerClose();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual(['c1', 'p1', 'p2']);
  });

  /** A command of the property below: its sym (or every sym) and its channel. */
  const step = fc.record({
    sym: fc.constantFrom(BTC, ETH, 'all'),
    rest: fc.boolean(),
  });

  it('never lets a command overtake one before it on its syms that it must wait for, holds no other, and sends all once answered', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (steps, picks) => {
          const log: string[] = [];
          const unanswered = new Map<number, () => void>();
          const order = new SymCommandOrder({ notSent: () => undefined, logger: pino({ level: 'silent' }) });
          const intentOf = (i: number): Intent => {
            const { sym, rest } = steps[i] ?? { sym: BTC, rest: false };
            const ref = String(i);
            if (sym === 'all') return rest ? borrow(ref) : { kind: 'cancelOrders', ref, targets: ['x'] };
            return rest ? close(ref, sym) : place(ref, sym);
          };
          const overlaps = (i: number, j: number) => {
            const [a, b] = [steps[i]?.sym, steps[j]?.sym];
            return a === 'all' || b === 'all' || a === b;
          };
          const sentAtOnce: boolean[] = [];
          steps.forEach((later, i) => {
            const before = log.length;
            order.submit({ strategyId: 's1', intent: intentOf(i) }, () => {
              log.push(`sent ${i}`);
              return new Promise<void>((resolve) => {
                unanswered.set(i, () => {
                  log.push(`answered ${i}`);
                  resolve();
                });
              });
            });
            sentAtOnce.push(log.length > before);
            // Nothing is answered yet: a command goes at once exactly when every command before it on
            // its syms went at once over the socket, and it goes over the socket too.
            const free = steps.every(
              (earlier, h) => h >= i || !overlaps(h, i) || (sentAtOnce[h] && !earlier.rest && !later.rest),
            );
            expect(sentAtOnce[i]).toBe(free);
          });
          // Answers in the order the picks say, then whatever is left, oldest first.
          for (const pick of [...picks, ...steps.map(() => 0)]) {
            const keys = [...unanswered.keys()];
            if (keys.length === 0) break;
            const i = keys[pick % keys.length] as number;
            unanswered.get(i)?.();
            unanswered.delete(i);
            await new Promise((resolve) => setTimeout(resolve, 0));
          }
          const at = (what: string) => log.indexOf(what);
          steps.forEach((later, j) => {
            expect(at(`sent ${j}`)).toBeGreaterThanOrEqual(0);
            for (let i = 0; i < j; i++) {
              const earlier = steps[i] as (typeof steps)[number];
              if (!overlaps(i, j)) continue;
              expect(at(`sent ${i}`)).toBeLessThan(at(`sent ${j}`));
              if (earlier.rest || later.rest) expect(at(`answered ${i}`)).toBeLessThan(at(`sent ${j}`));
            }
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});
