// The arithmetic of a virtual list of equal-height rows: which rows to draw for a scroll position,
// and where to scroll to bring a row into sight. Pure, so the unit tests check the edges.

/** Rows [first, last) to put in the DOM: those in sight, plus `overscan` either side. */
export function windowOf(top: number, height: number, rowHeight: number, count: number, overscan: number): [number, number] {
  const first = Math.max(0, Math.min(count, Math.floor(top / rowHeight) - overscan));
  const last = Math.max(first, Math.min(count, Math.ceil((top + height) / rowHeight) + overscan));
  return [first, last];
}

/** The scrollTop that shows row `i` with the least movement from `top`, or `top` when it is in sight. */
export function revealTop(i: number, top: number, height: number, rowHeight: number): number {
  const y = i * rowHeight;
  if (y < top) return y;
  if (y + rowHeight > top + height) return y + rowHeight - height;
  return top;
}
