import { describe, expect, it } from 'vitest';
import { D, type UserEvent } from '../../../../core/model/index.ts';
import { ChangesSinceSnapshot } from '../../../../core/venue/live/changes-since-snapshot.ts';
import { anExecution } from '../../../kit/execution-builders.ts';
import { anAccountUpdate, aPositionUpdate, BTC, ETH } from '../../../kit/kernel-events.ts';

const fill = (fields: Parameters<typeof anExecution>[0]): UserEvent => ({
  kind: 'execution',
  ts: fields.timestamp,
  recvTs: fields.timestamp,
  execution: anExecution(fields),
});

const usdt: UserEvent = {
  kind: 'asset',
  ts: 1,
  recvTs: 1,
  asset: {
    coin: 'USDT',
    balance: D(1),
    available: D(1),
    frozen: D(0),
    equity: D(1),
    borrow: D(0),
    upnl: D(0),
  },
};

describe("changes since a snapshot: a fill updates its leg's position", () => {
  it("takes a fill pushed after the snapshot began as an update of its leg's position only, not of its asset or account", () => {
    const changes = new ChangesSinceSnapshot();
    const mark = changes.begin();
    changes.note(fill({ side: 'BUY', quantity: '1', price: '100', timestamp: 5, sym: BTC }));
    expect(changes.updatedSince(aPositionUpdate(1, '0'), mark)).toBe(true);
    expect(changes.updatedSince(aPositionUpdate(1, '0', { sym: ETH }), mark)).toBe(false);
    expect(changes.updatedSince(aPositionUpdate(1, '0', { positionSide: 'LONG' }), mark)).toBe(false);
    expect(changes.updatedSince(usdt, mark)).toBe(false);
    expect(changes.updatedSince(anAccountUpdate(1, '1'), mark)).toBe(false);
  });

  it('updates the hedge leg the fill is on, not the others of its sym', () => {
    const changes = new ChangesSinceSnapshot();
    const mark = changes.begin();
    changes.note(fill({ side: 'SELL', quantity: '1', price: '100', timestamp: 5, positionSide: 'SHORT' }));
    expect(changes.updatedSince(aPositionUpdate(1, '1', { positionSide: 'SHORT' }), mark)).toBe(true);
    expect(changes.updatedSince(aPositionUpdate(1, '1', { positionSide: 'LONG' }), mark)).toBe(false);
  });

  it('never supersedes a fill the snapshot lists, even after its leg was updated', () => {
    const changes = new ChangesSinceSnapshot();
    const mark = changes.begin();
    changes.note(aPositionUpdate(6, '2'));
    changes.note(fill({ side: 'BUY', quantity: '1', price: '100', timestamp: 5 }));
    expect(changes.updatedSince(fill({ side: 'BUY', quantity: '1', price: '100', timestamp: 4 }), mark)).toBe(
      false,
    );
  });

  it('counts a fill noted before the snapshot began as older than it', () => {
    const changes = new ChangesSinceSnapshot();
    changes.begin();
    changes.note(fill({ side: 'BUY', quantity: '1', price: '100', timestamp: 5 }));
    const mark = changes.begin();
    expect(changes.updatedSince(aPositionUpdate(1, '0'), mark)).toBe(false);
  });
});
