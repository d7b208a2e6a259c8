// The logs view's first page, asked for before the app runs: the boot script (src/boot) sends it
// from the hash while the app's script is still on its way, and the view takes the answer (once)
// when it wants the same page; otherwise it asks for its own.

import { answerOf, ApiError, query, queryDoc, tracked, type LogRow, type Page } from './api';
import type { Early } from '../boot/request';
import type { View } from './view';

/** The first page is small, to be on screen soon; the rest of a full page follows at once. */
export const FIRST_PAGE = 100;
export const PAGE = 500;

/** What names a logs list: its filter and its window. */
export function listKey(v: Pick<View, 'q' | 'from' | 'to'>): string {
  return JSON.stringify([v.q, v.from, v.to]);
}

function takeEarly(): Early | null {
  const w = window as unknown as { miraEarly?: Early; miraStarted?: boolean };
  const e = w.miraEarly ?? null;
  delete w.miraEarly;
  // A boot script still on its way must not send a query nobody will take.
  w.miraStarted = true;
  return e;
}

/**
 * The first logs page for the view: the boot script's answer when it asked for exactly this page,
 * else a new request. A boot request refused with 401 went out before the token prompt could
 * listen, so it is asked again, this time through the prompt.
 */
export function firstPage(v: View, signal: AbortSignal): Promise<Page<LogRow>> {
  const e = takeEarly();
  const fresh = () => query<LogRow>('logs', v, v.q, FIRST_PAGE, undefined, signal);
  if (!e || e.body !== JSON.stringify(queryDoc('logs', v, v.q, FIRST_PAGE))) return fresh();
  return tracked(e.answer.then((a) => answerOf<Page<LogRow>>(a.status, a.statusText, a.text))).catch((err) => {
    if (err instanceof ApiError && err.status === 401) return fresh();
    throw err;
  });
}
