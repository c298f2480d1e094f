import { z } from 'zod';
import { BAR_INTERVAL_MS, type BarInterval } from '../../core/model/index.ts';
import { filePathSchema } from './file-path.ts';
import { symSchema } from './instrument-config.ts';

const INTERVALS = Object.keys(BAR_INTERVAL_MS) as [BarInterval, ...BarInterval[]];

/**
 * An OHLCV CSV file read as `keel import-csv` reads it, with what the file cannot say itself: the
 * sym, and the import's reading options under the names of its flags (`--zone`, `--interval`,
 * `--timestamp-is`, `--epoch-unit`, `--time-format`, `--decimal-mark`, `--header` / `--no-header`, `--adjust`,
 * `--skip-invalid`, `--synthetic`).
 */
export const ohlcvCsvConfigSchema = z.strictObject({
  csv: filePathSchema.describe(
    'The OHLCV CSV file, relative to the folder of the config file (`~/` is the home folder).',
  ),
  sym: symSchema.describe('The sym its bars are of.'),
  interval: z
    .enum(INTERVALS)
    .optional()
    .describe('The bar interval; absent = detected from the gaps between bars, as keel import-csv does.'),
  zone: z.string().min(1).optional().describe('IANA zone of times written without an offset; default UTC.'),
  timestampIs: z
    .enum(['open', 'close'])
    .optional()
    .describe("Whether a row's time is its bar's open (default) or close."),
  epochUnit: z
    .enum(['auto', 's', 'ms', 'us', 'ns'])
    .optional()
    .describe('Unit of numeric timestamps; default auto (by magnitude).'),
  timeFormat: z
    .string()
    .min(1)
    .optional()
    .describe('Luxon format of dates the defaults do not read, e.g. dd/MM/yyyy HH:mm.'),
  decimalMark: z
    .enum(['point', 'comma'])
    .optional()
    .describe(
      'The decimal mark of the numbers (point: 1,234.5; comma: 1.234,5), for a file whose numbers read two ways (151.234 and 1,234); default detected.',
    ),
  header: z
    .boolean()
    .optional()
    .describe(
      'Whether the first row is a header (true) or a bar (false); default detected (a row of numbers, NaN or decimal commas is a bar).',
    ),
  adjust: z
    .boolean()
    .optional()
    .describe('Scale open, high, low and close by Adj Close / Close (splits, dividends); default false.'),
  skipInvalid: z
    .boolean()
    .optional()
    .describe('Skip rows that are not valid bars (a run warns of them) instead of stopping; default false.'),
  synthetic: z
    .boolean()
    .optional()
    .describe('Label the data SYNTHETIC (generated data saved as CSV); default false.'),
});

/** An OHLCV CSV entry, validated. */
export type OhlcvCsvConfig = z.output<typeof ohlcvCsvConfigSchema>;
