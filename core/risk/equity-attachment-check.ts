import { deny, type RiskCheck } from './risk-check.ts';

/**
 * Denies a US-equity order that carries a take-profit or stop-loss: the spec's PLACE_ORDER has no
 * attachment fields, so live and paper would place the order without them while the backtest sim
 * fired them. Denied in every mode, a backtest cannot show a bracket that goes live without its
 * stop; the strategy places the exit itself, as a conditional order (OCO, SL) once the entry fills.
 */
export const equityAttachmentsCheck: RiskCheck = {
  name: 'equityAttachments',
  kind: 'rule',
  intents: ['placeOrder'],
  run({ intent, view }) {
    if (intent.kind !== 'placeOrder' || (intent.tp === undefined && intent.sl === undefined))
      return undefined;
    if (view.instrument(intent.sym)?.id.kind !== 'equity') return undefined;
    const attached = [intent.tp === undefined ? '' : 'tp', intent.sl === undefined ? '' : 'sl']
      .filter((name) => name !== '')
      .join(' and ');
    return deny(
      'equityAttachments',
      `order ${intent.ref} on ${intent.sym} carries ${attached}, but PLACE_ORDER (US equities) carries no attachments: place the exit as a conditional order (e.g. OCO, or SL) after the entry fills`,
    );
  },
};
