import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hostProbe,
  identityFrom,
  judgeHolder,
  processIdentity,
  sameProcess,
} from '../../../../backtest/report/index.ts';
import { fakeProbe } from '../../../kit/fake-process-probe.ts';

const STALE = 30_000;
const machine = { self: { pid: 7, ticks: '5000' }, others: { 42: '4000' } };
const here = { bootId: 'boot-1', pidNamespace: 'pid:[4026531836]', host: 'box' };

describe('processIdentity', () => {
  it('reads start time (field 22 of /proc/self/stat, counted after the command name), boot, pid namespace and host', () => {
    expect(processIdentity(fakeProbe(machine))).toEqual({ pid: 7, startTicks: '5000', ...here });
  });

  it('is pid and host alone where there is no /proc (macOS)', () => {
    expect(processIdentity(fakeProbe({ ...machine, noProc: true }))).toEqual({ pid: 7, host: 'box' });
  });

  it("reads this process's real identity", () => {
    const me = processIdentity();
    expect(me.pid).toBe(process.pid);
    expect(me.host).toBe(hostname());
    if (existsSync('/proc/self/stat')) {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      expect(me.startTicks).toBe(fields[19]);
      expect(me.bootId).toBe(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
      expect(me.pidNamespace).toMatch(/^pid:\[\d+\]$/);
    }
    expect(judgeHolder(me, { staleAfterMs: STALE })).toMatchObject({ live: true, why: 'is this process' });
    if (me.startTicks !== undefined)
      expect(judgeHolder({ ...me, startTicks: `${me.startTicks}1` }, { staleAfterMs: STALE }).live).toBe(
        false,
      );
    expect(judgeHolder({ ...me, pid: 2 ** 30 }, { probe: hostProbe, staleAfterMs: STALE })).toMatchObject({
      live: false,
      why: 'no longer runs',
    });
  });
});

describe('identityFrom and sameProcess', () => {
  it('reads the fields it knows, ignores the rest, and needs a pid', () => {
    expect(identityFrom({ pid: 3, startedAt: 'x', host: 'h', startTicks: 9 })).toEqual({ pid: 3, host: 'h' });
    expect(identityFrom({ startedAt: 'x' })).toBeUndefined();
    expect(identityFrom(null)).toBeUndefined();
  });

  it('tells processes apart by any field both name', () => {
    const a = { pid: 7, startTicks: '5000', ...here };
    expect(sameProcess(a, { pid: 7 })).toBe(true);
    expect(sameProcess(a, { ...a, startTicks: '5001' })).toBe(false);
    expect(sameProcess(a, { ...a, pidNamespace: 'pid:[1]' })).toBe(false);
    expect(sameProcess(a, { ...a, pid: 8 })).toBe(false);
  });
});

describe('judgeHolder: a holder in this pid namespace, boot and host is probed', () => {
  const probe = fakeProbe(machine);
  const judge = (holder: Parameters<typeof judgeHolder>[0], takenHere?: boolean) =>
    judgeHolder(holder, { probe, staleAfterMs: STALE, ...(takenHere === undefined ? {} : { takenHere }) });

  it('runs when its pid runs the process that started at its start time', () => {
    expect(judge({ pid: 42, startTicks: '4000', ...here })).toMatchObject({ live: true, elsewhere: false });
  });

  it('is gone when its pid runs nothing', () => {
    expect(judge({ pid: 43, startTicks: '4000', ...here })).toMatchObject({
      live: false,
      why: 'no longer runs',
    });
  });

  it('is gone when its pid runs a process started at another time (the pid was reused)', () => {
    expect(judge({ pid: 42, startTicks: '3999', ...here })).toMatchObject({
      live: false,
      why: 'no longer runs (its pid belongs to a process started since)',
    });
  });

  it("naming this process's pid, is this process only if it took the file", () => {
    const mine = { pid: 7, startTicks: '5000', ...here };
    expect(judge(mine, true).live).toBe(true);
    expect(judge(mine, false)).toMatchObject({
      live: false,
      why: "named this process's pid but was left by an earlier process that had it (a restarted container)",
    });
    // Unsaid (a spill directory, which worker threads of this process make too): by start time.
    expect(judge(mine).live).toBe(true);
    expect(judge({ ...mine, startTicks: '10' }).live).toBe(false);
  });

  it('written by an older Keel (a pid alone), is judged by the pid', () => {
    expect(judge({ pid: 42 }).live).toBe(true);
    expect(judge({ pid: 43 }).live).toBe(false);
    expect(judge({ pid: 7 }, false).live).toBe(false);
  });

  it('where /proc belongs to another pid namespace, is judged by the pid alone', () => {
    const foreign = fakeProbe({ ...machine, foreignProc: true });
    expect(
      judgeHolder({ pid: 42, startTicks: '1', ...here }, { probe: foreign, staleAfterMs: STALE }).live,
    ).toBe(true);
  });

  it('where there is no /proc (macOS), is judged by the pid on the same host', () => {
    const mac = fakeProbe({ ...machine, noProc: true });
    expect(judgeHolder({ pid: 42, host: 'box' }, { probe: mac, staleAfterMs: STALE }).live).toBe(true);
    expect(judgeHolder({ pid: 43, host: 'box' }, { probe: mac, staleAfterMs: STALE }).live).toBe(false);
  });
});

describe('judgeHolder: a holder elsewhere is judged by its heartbeat', () => {
  const probe = fakeProbe(machine);
  const elsewhere = [
    { pid: 42, startTicks: '4000', ...here, pidNamespace: 'pid:[4026532999]' },
    { pid: 7, startTicks: '5000', ...here, pidNamespace: 'pid:[4026532999]' },
    { pid: 43, startTicks: '4000', ...here, host: 'other-box' },
    { pid: 42, startTicks: '4000', ...here, bootId: 'boot-0' },
  ];

  it('runs while its heartbeat is younger than the bound, whatever its pid does here', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...elsewhere),
        fc.nat(2 * STALE),
        fc.boolean(),
        (holder, age, takenHere) => {
          const verdict = judgeHolder(holder, { probe, heartbeatAgeMs: age, staleAfterMs: STALE, takenHere });
          expect(verdict.elsewhere).toBe(true);
          expect(verdict.live).toBe(age < STALE);
        },
      ),
    );
  });

  it('says where it ran and how old its heartbeat is', () => {
    const holder = elsewhere[0] as (typeof elsewhere)[number];
    expect(judgeHolder(holder, { probe, heartbeatAgeMs: 4_200, staleAfterMs: STALE }).why).toBe(
      'runs on host box in another pid namespace (container) or boot: its heartbeat is 4 s old',
    );
    expect(judgeHolder(holder, { probe, heartbeatAgeMs: 45_000, staleAfterMs: STALE }).why).toBe(
      'ran on host box in another pid namespace (container) or boot and its heartbeat stopped 45 s ago (at least 30 s ago means gone)',
    );
    expect(judgeHolder(holder, { probe, staleAfterMs: STALE }).live).toBe(false);
  });
});
