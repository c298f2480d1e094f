import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODE_MEANINGS } from '../../../config/cli/index.ts';
import { loadConfig } from '../../../config/loader/index.ts';
import { BACKTEST_YAML, LIVE_ENV, LIVE_YAML, replaceLine } from '../../kit/config-texts.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { writeRecording } from '../../kit/recording-files.ts';

describe('keel command line', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keel-cli-'));
    writeFileSync(join(dir, 'bt.yaml'), BACKTEST_YAML);
    writeFileSync(
      join(dir, 'bad.yaml'),
      replaceLine(BACKTEST_YAML, '  recordings: [a.jsonl]', '  recordings: a.jsonl'),
    );
    writeFileSync(join(dir, 'live.yaml'), LIVE_YAML);
    // bt.yaml's recording: validate reads its header, not its data.
    await writeRecording(join(dir, 'a.jsonl'), []);
    writeFileSync(
      join(dir, 'missing.yaml'),
      replaceLine(BACKTEST_YAML, '  recordings: [a.jsonl]', '  recordings: [nope.jsonl]'),
    );
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints help listing every command, exit 0', () => {
    const { code, stdout } = keelChild(['--help']);
    expect(code).toBe(EXIT.OK);
    for (const command of [
      'run',
      'backtest',
      'record',
      'venue',
      'import-csv',
      'report',
      'validate',
      'sweep',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it('ends its help with every exit code and its meaning, the same list as the README', async () => {
    const { stdout } = await keelInProcess(['--help']);
    const listed = (text: string, item: RegExp) =>
      text
        .slice(text.indexOf('Exit codes'))
        .split('\n')
        .flatMap((line) => item.exec(line)?.slice(1, 3).join(' ') ?? []);
    const expected = Object.entries(EXIT_CODE_MEANINGS).map(([code, meaning]) => `${code} ${meaning}`);
    expect(expected.map((line) => line.split(' ')[0])).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '129',
      '130',
      '143',
    ]);
    expect(listed(stdout, /^ {2}(\d+) +(.+)$/)).toEqual(expected);
    const readme = readFileSync('README.md', 'utf8');
    const list = readme.slice(readme.indexOf('Exit codes'), readme.indexOf('\n\n', readme.indexOf('\n- 0 ')));
    expect(listed(list, /^- (\d+) (.+)$/)).toEqual(expected);
  });

  it('validates a good config, exit 0', async () => {
    const file = join(dir, 'bt.yaml');
    const { code, stdout } = await keelInProcess([
      'validate',
      file,
      '--set',
      'strategies.0.params.sym=BINANCE_PERP_BTC_USDT',
    ]);
    expect(stdout).toBe(`✔ ${file} is valid (mode backtest, 1 strategy)\n`);
    expect(code).toBe(EXIT.OK);
  });

  it('prints one located line for a broken config, exit 2', () => {
    const file = join(dir, 'bad.yaml');
    const { code, stdout, stderr } = keelChild(['validate', file]);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `✖ backtest.recordings must be a list (lines starting with "- "), not the string "a.jsonl" → at backtest.recordings (${file}:12:15)\n`,
    );
    expect(code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('names a missing secret and never prints the ones it has', () => {
    const file = join(dir, 'live.yaml');
    const missing = keelChild(['validate', file], { env: { T_KEY: LIVE_ENV.T_KEY } });
    expect(missing.stderr).toBe(
      `✖ venue.apiSecret refers to \${T_SECRET}, which is not set (environment or .env) → at venue.apiSecret (${file}:5:14)\n`,
    );
    expect(missing.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    const printed = keelChild(
      [
        'validate',
        file,
        '--print',
        ...['sym=BINANCE_PERP_BTC_USDT', 'qty=0.01', 'maxPosition=0.1'].flatMap((p) => [
          '--set',
          `strategies.0.params.${p}`,
        ]),
      ],
      { env: LIVE_ENV },
    );
    expect(printed.code).toBe(EXIT.OK);
    expect(printed.stdout).toContain('apiSecret: "[redacted]"');
    // The market maker's params as it will run them: its defaults are filled in.
    expect(printed.stdout).toContain(
      [
        'sym: BINANCE_PERP_BTC_USDT',
        'qty: 0.01',
        'halfSpreadTicks: 2',
        'skewTicksPerUnit: 1',
        'maxPosition: 0.1',
      ]
        .map((line) => `      ${line}\n`)
        .join(''),
    );
    expect(printed.stdout + printed.stderr).not.toContain(LIVE_ENV.T_SECRET);
    expect(printed.stdout + printed.stderr).not.toContain(LIVE_ENV.T_KEY);
  });

  it('refuses a missing recording at its line, in validate and backtest alike, exit 2', async () => {
    const file = join(dir, 'missing.yaml');
    const line = `✖ backtest.recordings[0] names no such file: ${join(dir, 'nope.jsonl')} → at backtest.recordings[0] (${file}:12:16)\n`;
    const params = ['--set', 'strategies.0.params.sym=BINANCE_PERP_BTC_USDT'];
    const validate = await keelInProcess(['validate', file, ...params]);
    expect(validate.stdout).toBe('');
    expect(validate.stderr).toBe(line);
    expect(validate.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    const backtest = await keelInProcess(['backtest', file, '--no-progress', ...params]);
    expect(backtest.stdout).toBe('');
    expect(backtest.stderr).toBe(line);
    expect(backtest.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    const sweep = await keelInProcess(['sweep', file, '--grid', 'strategies.0.params.fast=2,3', ...params]);
    expect(sweep.stderr).toBe(line);
    expect(sweep.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it("refuses a misspelled param of the README's plain z.object plugin, with a did-you-mean, exit 2", async () => {
    const run = await keelInProcess([
      'validate',
      'config/examples/first-strategy-backtest.yaml',
      '--set',
      'strategies.0.params.perod=3',
    ]);
    expect(run.stderr).toBe(
      '✖ params.perod is not a known key (did you mean period?) → at strategies[0].params.perod (--set strategies.0.params.perod=3)\n',
    );
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('reads a .ts plugin in a folder without a "type": "module" package as ESM, and says how to load such a .js one', () => {
    // tmpdir has no package.json, so Node takes plugin.js for CommonJS, as in a user's loose folder.
    const validate = (file: string) => {
      // Each in its own folder: tsx would take ./plugin.js for a plugin.ts beside it.
      const loose = mkdtempSync(join(tmpdir(), 'keel-loose-plugin-'));
      writeFileSync(
        join(loose, file),
        "import { readFileSync } from 'node:fs';\nexport default readFileSync;\n",
      );
      writeFileSync(
        join(loose, 'loose.yaml'),
        replaceLine(BACKTEST_YAML, '    use: sma-cross', `    use: ./${file}`),
      );
      const run = keelChild(['validate', join(loose, 'loose.yaml')]);
      rmSync(loose, { recursive: true, force: true });
      return run;
    };
    const ts = validate('plugin.ts');
    const js = validate('plugin.js');
    // Loaded: its default export is just not a strategy.
    expect(ts.stderr).toContain('plugin.ts exports no strategy: export default defineStrategy({...})');
    expect(js.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(js.stderr).toContain(
      'plugin.js failed to load: it is an ES module that Node read as CommonJS: name it .mjs or .ts, or put "type": "module" in the package.json next to it (Node: ',
    );
  });

  it('refuses a missing --recording by name, exit 2', async () => {
    const missing = join(dir, 'gone.jsonl');
    const run = await keelInProcess([
      'backtest',
      join(dir, 'bt.yaml'),
      '--no-progress',
      '--recording',
      missing,
      '--set',
      'strategies.0.params.sym=BINANCE_PERP_BTC_USDT',
    ]);
    expect(run.stderr).toBe(`✖ --recording ${missing}: no such file\n`);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it.each(['run', 'backtest', 'record', 'venue', 'import-csv', 'report', 'validate', 'sweep'])(
    'prints help for %s, exit 0',
    async (command) => {
      const { code, stdout } = await keelInProcess([command, '--help']);
      expect(stdout).toMatch(new RegExp(`^Usage: keel ${command} `));
      expect(code).toBe(EXIT.OK);
    },
  );

  it('treats a missing argument as a usage error, exit 2', async () => {
    const { code, stderr } = await keelInProcess(['validate']);
    expect(stderr).toContain("missing required argument 'config'");
    expect(code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('applies --from/--to and --set before validating a backtest', async () => {
    const file = join(dir, 'bt.yaml');
    const { code, stderr } = await keelInProcess([
      'backtest',
      file,
      '--from',
      'yesterday',
      '--set',
      'backtest.closeAtEnd=7',
    ]);
    expect(stderr.trim().split('\n')).toEqual([
      '✖ backtest.from must be an ISO date-time with a zone like 2026-11-20T09:30:00Z, or epoch milliseconds → at backtest.from (--from yesterday)',
      '✖ backtest.closeAtEnd must be true or false, not the number 7 → at backtest.closeAtEnd (--set backtest.closeAtEnd=7)',
    ]);
    expect(code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('refuses --from in epoch seconds instead of reading it as a time in 1970', async () => {
    const file = join(dir, 'bt.yaml');
    const { code, stderr } = await keelInProcess(['backtest', file, '--from', '1736150400']);
    expect(stderr.trim().split('\n')).toEqual([
      '✖ backtest.from must be epoch milliseconds, not seconds (1736150400): write 1736150400000 or an ISO date-time like 2025-01-06T08:00:00.000Z → at backtest.from (--from 1736150400)',
    ]);
    expect(code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('refuses a config of the wrong mode for the command', async () => {
    const file = join(dir, 'bt.yaml');
    const { code, stderr } = await keelInProcess(['run', file]);
    expect(stderr).toBe(`✖ keel run needs a config with mode live or paper; ${file} has mode backtest\n`);
    expect(code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('refuses a bad option value, exit 2', async () => {
    const { code, stderr } = await keelInProcess(['venue', '--port', '70000']);
    expect(stderr).toContain('must be a whole number from 0 to 65535');
    expect(code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('refuses a misspelled sweep --metric before any backtest runs, with a did-you-mean, exit 2', async () => {
    const file = join(dir, 'bt.yaml');
    const { code, stdout, stderr } = await keelInProcess([
      'sweep',
      file,
      '--grid',
      'backtest.latency.fixedMs=5,10',
      '--metric',
      'sharp',
    ]);
    expect(stderr).toMatch(
      /^✖ --metric sharp is not a result metric \(did you mean sharpe\?\); the metrics: start, .*\btotalReturn\b.*\n$/,
    );
    expect(stderr.match(/✖/g)).toHaveLength(1);
    expect(stdout).toBe('');
    expect(code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('checks every sweep combination before any would run', async () => {
    const file = join(dir, 'bt.yaml');
    const bad = await keelInProcess(['sweep', file, '--grid', 'backtest.latency.fixedMs=5,-1']);
    expect(bad.stderr).toBe(
      '✖ latency.fixedMs must be zero or more → at backtest.latency.fixedMs (--grid backtest.latency.fixedMs=-1)\n',
    );
    expect(bad.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    // The strategy params of each combination are checked too, before a worker starts.
    const params = await keelInProcess(['sweep', file, '--grid', 'backtest.latency.fixedMs=5,10']);
    expect(params.stderr).toMatch(
      /^✖ params\.sym is required → at strategies\[0\]\.params\.sym \(.*bt\.yaml:\d+:\d+\)\n$/,
    );
    expect(params.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('names the --grid a wrong path came from, not --set, and its help shows only paths that load', async () => {
    const file = join(dir, 'bt.yaml');
    const bare = await keelInProcess(['sweep', file, '--grid', 'fast=3..5:2']);
    expect(bare.stderr).toBe('✖ fast is not a known key → at fast (--grid fast=3)\n');
    expect(bare.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    // The user's own --set keeps its name beside a grid.
    const set = await keelInProcess([
      'sweep',
      file,
      '--grid',
      'strategies.0.params.fast=3',
      '--set',
      'slow=1',
    ]);
    expect(set.stderr).toBe('✖ slow is not a known key → at slow (--set slow=1)\n');
    const help = (await keelInProcess(['sweep', '--help'])).stdout.replace(/\s+/g, ' ');
    const examples = help.match(/[\w.]+=[\d.:,]*\d/g) ?? [];
    expect(examples.length).toBeGreaterThan(1);
    for (const example of examples) {
      const first = example.replace(/=(-?[\d.]+?)(?:\.\.|,).*$/, '=$1');
      expect(loadConfig(file, { overrides: [first] }).ok, `${example} as ${first}`).toBe(true);
    }
  });

  it.each([
    [
      ['import-csv', 'missing.csv', '--sym', 'BINANCE_PERP_BTC_USDT', '--out', 'a.jsonl'],
      EXIT.BAD_CONFIG_OR_USAGE,
    ],
    [['report', 'missing-result.json'], EXIT.BAD_CONFIG_OR_USAGE],
  ])('%j of a missing file says so in one line, exit %i', async (args, exitCode) => {
    const { code, stderr } = await keelInProcess(args);
    expect(stderr).toMatch(new RegExp(`^✖ keel ${args[0]}.*missing`));
    expect(code).toBe(exitCode);
  });
});
