// The logs view's first page, asked for before the app mounts: main.ts starts it from the hash the
// page opened with, so the query runs on the server while the script builds the views. The view
// takes it (once) when it wants the same page, and asks for its own otherwise.

import { ApiError, query, type LogRow, type Page } from './api';
import type { View } from './view';

/** The first page is small, to be on screen soon; the rest of a full page follows at once. */
export const FIRST_PAGE = 100;
export const PAGE = 500;

/** What names a logs list: its filter and its window. */
export function listKey(v: Pick<View, 'q' | 'from' | 'to'>): string {
  return JSON.stringify([v.q, v.from, v.to]);
}

let early: { key: string; answer: Promise<Page<LogRow>> } | null = null;

/** Starts the logs view's first page if the page opens on the logs view. */
export function startEarly(v: View): void {
  if (v.tab !== 'logs') return;
  const answer = query<LogRow>('logs', v, v.q, FIRST_PAGE);
  // Whoever takes it handles its failure; left untaken, a failure must not be reported as unhandled.
  answer.catch(() => {});
  early = { key: listKey(v), answer };
}

/**
 * The first page for the list `key`: the early one if it was asked for that list (taken once), else
 * a new request. An early request refused with 401 went out before the token prompt could listen,
 * so it is asked again, this time through the prompt.
 */
export function firstPage(v: View, signal: AbortSignal): Promise<Page<LogRow>> {
  const e = early;
  early = null;
  const fresh = () => query<LogRow>('logs', v, v.q, FIRST_PAGE, undefined, signal);
  if (!e || e.key !== listKey(v)) return fresh();
  return e.answer.catch((err) => {
    if (err instanceof ApiError && err.status === 401) return fresh();
    throw err;
  });
}
