import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InFlightCommands } from '../../../config/compose/in-flight-commands.ts';
import type { ExecutionPort } from '../../../core/execution/index.ts';
import { D, type UserEvent } from '../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../core/risk/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { approved } from '../../kit/approved-intents.ts';
import { aLimitOrder, aSellStop } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** A port that answers nothing by itself: the test pushes the venue's answers. */
function silentPort() {
  const events = new Subject<UserEvent>();
  const sent: ApprovedIntent[] = [];
  const port: ExecutionPort = {
    events,
    submit: (command) => sent.push(command),
    lookupOrder: () => Promise.resolve(undefined),
    snapshot: () => Promise.reject(new Error('not asked')),
  };
  return { events, sent, port };
}

const at = { ts: 5, recvTs: 5 };
const borrow = (ref: string) =>
  approved({ kind: 'borrow', ref, exchange: 'BINANCE', coin: 'BTC', amount: D('0.1') });

describe('the commands in flight', () => {
  it('keeps a placed order, algo order and borrow until the venue answers each, and passes them on', () => {
    const { events, sent, port } = silentPort();
    const inFlight = new InFlightCommands(port, () => 100);
    const commands = [
      approved(aLimitOrder({ ref: 'o-1' })),
      approved(aSellStop({ ref: 'a-1' })),
      borrow('l-1'),
      approved(aLimitOrder({ ref: 'o-2' })),
    ];
    for (const command of commands) inFlight.submit(command);
    expect(sent).toEqual(commands);
    expect(inFlight.pending().map((c) => [c.ref, c.kind, c.sentAt])).toEqual([
      ['o-1', 'placeOrder', 100],
      ['a-1', 'placeAlgoOrder', 100],
      ['l-1', 'borrow', 100],
      ['o-2', 'placeOrder', 100],
    ]);
    events.next({ kind: 'order', ...at, order: anOrder({ clientOrderId: 'o-1', orderState: 'OPEN' }) });
    events.next(anAlgoOrderUpdate(anAlgoOrder({ clientAlgoOrderId: 'a-1' })));
    const loan = {
      exchange: 'BINANCE',
      coin: 'BTC',
      principal: D('0.1'),
      interest: D(0),
      annualRate: D(0),
      updateAt: 5,
    };
    events.next({ kind: 'loan', ...at, loan });
    expect(inFlight.pending().map((c) => c.ref)).toEqual(['o-2']);
    events.next({
      kind: 'commandRejected',
      ...at,
      ref: 'o-2',
      intentKind: 'placeOrder',
      code: 0,
      message: 'x',
    });
    expect(inFlight.pending()).toEqual([]);
  });

  it('does not keep cancels, nor an order the venue refused while it was being sent', () => {
    const { events, port } = silentPort();
    const inFlight = new InFlightCommands({
      ...port,
      submit: (command) =>
        events.next({
          kind: 'order',
          ...at,
          order: anOrder({ clientOrderId: command.intent.ref, orderState: 'REJECTED' }),
        }),
    });
    inFlight.submit(approved(aLimitOrder({ ref: 'o-1' })));
    inFlight.submit(
      approved({ kind: 'cancelOrder', ref: 'c-1', sym: 'BINANCE_PERP_BTC_USDT', target: 'o-1' } as never),
    );
    expect(inFlight.pending()).toEqual([]);
  });
});
