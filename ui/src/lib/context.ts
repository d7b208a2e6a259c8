import type { View } from './view';
import type { ApiError, Partial as PartialAnswer } from './api';

/** What every view gets from the App: the view, a way to change it, and where to report answers. */
export interface Ctx {
  readonly view: View;
  /** Changes the view; `push` adds a history entry (a new place), otherwise the entry is replaced. */
  set(patch: Partial<View>, push?: boolean): void;
  /** An API error: one with a column belongs to the filter bar, the rest to the view that got it. */
  filterError(e: ApiError | null): void;
  /** Every answer, so a partial one can be announced. */
  answered(a: PartialAnswer | null): void;
}

/** The list that `j` and `k` move in, registered by whichever list is on screen. */
export const keys: { move: ((delta: number) => void) | null } = { move: null };
