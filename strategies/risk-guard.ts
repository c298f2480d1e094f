import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../core/kernel/index.ts';
import { floorToStep, type Intent, type Position } from '../core/model/index.ts';

const params = z
  .object({
    /** Reduce a position once its ADL rank (1-5) reaches this. */
    adlRankThreshold: z.number().int().min(1).max(5).default(4),
    /** Fraction of the position cut on an ADL warning (0-1]. */
    reduceFraction: z.number().positive().max(1).default(0.5),
    /** Wait this long before cutting the same position again, ms. */
    cooldownMs: z.number().int().min(0).default(60_000),
    /** Close every position when a liquidation starts or the account enters MARGIN_CALL. */
    closeAllOnLiquidation: z.boolean().default(true),
    /** How often positions and the account are checked, ms. */
    checkEveryMs: z.number().int().positive().default(1_000),
  })
  .strict();

/** Parameters of the risk guard. */
export type RiskGuardParams = z.infer<typeof params>;

interface RiskGuardState {
  /** When each position leg (sym|side) was last cut. */
  readonly lastCut: Map<string, number>;
  /** The liquidation event already answered. */
  handledLiquidation: string | undefined;
}

type Ctx = StrategyContext<RiskGuardParams, RiskGuardState>;

/** The syms of every non-flat position, at most 20 per close-positions request (the spec's limit). */
function closeAll(ctx: Ctx): Intent[] {
  const syms = [
    ...new Set(
      ctx
        .positionList()
        .filter((p) => !p.positionQty.isZero())
        .map((p) => p.sym),
    ),
  ];
  const intents: Intent[] = [];
  for (let i = 0; i < syms.length; i += 20) intents.push(ctx.order.closePositions(syms.slice(i, i + 20)));
  return intents;
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
  const liquidation = ctx.liquidation();
  const status = ctx.account()?.accountStatus;
  const distressed =
    (liquidation !== undefined && liquidation.liquidationEventId !== ctx.state.handledLiquidation) ||
    status === 'MARGIN_CALL';
  if (ctx.params.closeAllOnLiquidation && distressed) {
    ctx.state.handledLiquidation = liquidation?.liquidationEventId ?? ctx.state.handledLiquidation;
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
 * A guard that runs beside other strategies: it cuts a position by `reduceFraction` when its
 * ADL rank reaches the threshold, and closes every position when a liquidation starts or the
 * account enters MARGIN_CALL. It acts on position updates and on a periodic check.
 */
export const riskGuard = defineStrategy<RiskGuardParams, RiskGuardState>({
  name: 'risk-guard',
  description: 'Reduces exposure when ADL rank rises and closes out when a liquidation starts.',
  params,
  state: () => ({ lastCut: new Map(), handledLiquidation: undefined }),
  onStart: (ctx) => {
    ctx.every(ctx.params.checkEveryMs, 'check');
  },
  onTimer: (ctx) => check(ctx),
  onPosition: (ctx) => check(ctx),
});
