import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../core/kernel/index.ts';
import { floorToStep, type Intent, type Position } from '../core/model/index.ts';

/** The venue closes at most 20 syms per close-positions request (spec). */
const MAX_CLOSE_SYMS = 20;

const params = z
  .object({
    adlRankThreshold: z
      .number()
      .int()
      .min(1)
      .max(5)
      .default(4)
      .describe('Reduce a position once its ADL rank (1-5) reaches this.'),
    reduceFraction: z
      .number()
      .positive()
      .max(1)
      .default(0.5)
      .describe('Fraction of the position cut on an ADL warning (0-1].'),
    cooldownMs: z
      .number()
      .int()
      .min(0)
      .default(60_000)
      .describe('Wait this long before cutting the same position again, ms.'),
    closeAllOnLiquidation: z
      .boolean()
      .default(true)
      .describe('Close every position when a liquidation starts or the account enters MARGIN_CALL.'),
    checkEveryMs: z
      .number()
      .int()
      .positive()
      .default(1_000)
      .describe('How often positions and the account are checked, ms.'),
  })
  .strict();

/** Parameters of the risk guard. */
export type RiskGuardParams = z.infer<typeof params>;

interface RiskGuardState {
  /** When each position leg (sym|side) was last cut. */
  readonly lastCut: Map<string, number>;
  /** The liquidation event already answered. */
  handledLiquidation: string | undefined;
  /** Close-positions requests sent and not yet done (a listed sym still open) nor refused. */
  readonly closing: Map<string, readonly string[]>;
}

type Ctx = StrategyContext<RiskGuardParams, RiskGuardState>;

function openSyms(ctx: Ctx): string[] {
  return [
    ...new Set(
      ctx
        .positionList()
        .filter((p) => !p.positionQty.isZero())
        .map((p) => p.sym),
    ),
  ];
}

/** Close-positions requests for every sym with an open position, 20 syms each. */
function closeAll(ctx: Ctx): Intent[] {
  const syms = openSyms(ctx);
  const intents: Intent[] = [];
  for (let i = 0; i < syms.length; i += MAX_CLOSE_SYMS) {
    const symList = syms.slice(i, i + MAX_CLOSE_SYMS);
    const intent = ctx.order.closePositions(symList);
    ctx.state.closing.set(intent.ref, symList);
    intents.push(intent);
  }
  return intents;
}

/** Forgets close requests whose syms are all flat now; true while one is still working. */
function stillClosing(ctx: Ctx): boolean {
  const open = new Set(openSyms(ctx));
  for (const [ref, syms] of ctx.state.closing) {
    if (!syms.some((sym) => open.has(sym))) ctx.state.closing.delete(ref);
  }
  return ctx.state.closing.size > 0;
}

function cut(ctx: Ctx, position: Position): Intent | undefined {
  const key = `${position.sym}|${position.positionSide}`;
  const last = ctx.state.lastCut.get(key);
  if (last !== undefined && ctx.now() - last < ctx.params.cooldownMs) return undefined;
  const spec = ctx.instrument(position.sym);
  if (spec === undefined) return undefined;
  const qty = floorToStep(position.positionQty.abs().mul(ctx.params.reduceFraction), spec.lotSize);
  if (qty.isZero()) return undefined;
  ctx.state.lastCut.set(key, ctx.now());
  const long =
    position.positionSide === 'LONG' || (position.positionSide === 'NONE' && position.positionQty.gt(0));
  return ctx.order.market({
    sym: position.sym,
    side: long ? 'SELL' : 'BUY',
    qty,
    reduceOnly: true,
    positionSide: position.positionSide,
  });
}

function check(ctx: Ctx): Intent[] {
  if (stillClosing(ctx)) return [];
  const liquidation = ctx.liquidation();
  const newLiquidation =
    liquidation !== undefined && liquidation.liquidationEventId !== ctx.state.handledLiquidation;
  if (
    ctx.params.closeAllOnLiquidation &&
    (newLiquidation || ctx.account()?.accountStatus === 'MARGIN_CALL')
  ) {
    if (liquidation !== undefined) ctx.state.handledLiquidation = liquidation.liquidationEventId;
    return closeAll(ctx);
  }
  const intents: Intent[] = [];
  for (const position of ctx.positionList()) {
    if (position.positionQty.isZero()) continue;
    if (ctx.adlRank(position.sym, position.positionSide) < ctx.params.adlRankThreshold) continue;
    const intent = cut(ctx, position);
    if (intent !== undefined) intents.push(intent);
  }
  return intents;
}

/**
 * A guard that runs beside other strategies and watches the whole portfolio. When a position's
 * ADL rank reaches `adlRankThreshold` it cuts `reduceFraction` of it (floored to the lot) with a
 * reduce-only market order, at most once per `cooldownMs` per position. When a liquidation event
 * starts (once per event) or the account is in MARGIN_CALL, it closes every open position with
 * close-positions requests, and sends no more while those are working (until their syms are flat
 * or the venue refused them). It checks on every position update and every `checkEveryMs`.
 * @example
 * { id: 'guard', strategy: riskGuard, params: { adlRankThreshold: 4, reduceFraction: 0.5 } }
 */
export const riskGuard = defineStrategy<RiskGuardParams, RiskGuardState>({
  name: 'risk-guard',
  description: 'Reduces exposure when ADL rank rises and closes out when a liquidation starts.',
  params,
  state: () => ({ lastCut: new Map(), handledLiquidation: undefined, closing: new Map() }),
  onStart: (ctx) => {
    ctx.every(ctx.params.checkEveryMs, 'check');
  },
  onTimer: (ctx) => check(ctx),
  onPosition: (ctx) => check(ctx),
  onDenied: (ctx, denial) => {
    ctx.state.closing.delete(denial.ref);
  },
});
