import type { ProcessProbe } from '../../backtest/report/index.ts';

/** A `/proc/<pid>/stat` line whose command name holds spaces and parentheses, started at `ticks`. */
export function statLine(pid: number, ticks: string): string {
  const after = [
    'S',
    '1',
    '1',
    '1',
    '0',
    '-1',
    '4194304',
    '0',
    '0',
    '0',
    '0',
    '5',
    '2',
    '0',
    '0',
    '20',
    '0',
    '1',
    '0',
  ];
  return `${pid} (node (keel) x) ${after.join(' ')} ${ticks} 1000 200\n`;
}

/** What a fake machine holds: this process, the other processes (pid -> start ticks) and its /proc. */
export interface FakeMachine {
  /** This process's pid and start ticks. */
  readonly self: { readonly pid: number; readonly ticks: string };
  /** The other running processes of this pid namespace: pid -> start ticks. */
  readonly others?: Readonly<Record<number, string>>;
  readonly host?: string;
  readonly bootId?: string;
  readonly pidNamespace?: string;
  /** No /proc at all (macOS). */
  readonly noProc?: boolean;
  /** /proc mounted for another pid namespace than this process's. */
  readonly foreignProc?: boolean;
}

/**
 * A probe of a made-up machine, so judgements do not depend on the host running the tests.
 * @param machine - its processes and identity
 * @returns the probe
 */
export function fakeProbe(machine: FakeMachine): ProcessProbe {
  const { self, others = {} } = machine;
  const host = machine.host ?? 'box';
  const files: Record<string, string> = machine.noProc
    ? {}
    : {
        '/proc/self/stat': statLine(self.pid, self.ticks),
        '/proc/sys/kernel/random/boot_id': `${machine.bootId ?? 'boot-1'}\n`,
        [`/proc/${self.pid}/stat`]: statLine(self.pid, self.ticks),
        ...Object.fromEntries(
          Object.entries(others).map(([pid, ticks]) => [`/proc/${pid}/stat`, statLine(Number(pid), ticks)]),
        ),
      };
  const links: Record<string, string> = machine.noProc
    ? {}
    : {
        '/proc/self': machine.foreignProc ? '98765' : String(self.pid),
        '/proc/self/ns/pid': machine.pidNamespace ?? 'pid:[4026531836]',
      };
  return {
    pid: self.pid,
    readFile: (path) => files[path],
    readLink: (path) => links[path],
    hostname: () => host,
    runs: (pid) => pid === self.pid || others[pid] !== undefined,
  };
}
