// Positions for the service map: callers left of callees, one column per call depth.

export interface Placed { id: string; x: number; y: number; column: number }

export function placeNodes(nodes: readonly string[], edges: readonly { from: string; to: string }[],
  width: number, height: number): Map<string, Placed> {
  const column = new Map<string, number>(nodes.map((n) => [n, 0]));
  // Longest path from a caller, relaxed at most |nodes| times so a call cycle cannot loop forever.
  for (let round = 0; round < nodes.length; round++) {
    let changed = false;
    for (const e of edges) {
      if (e.from === e.to || !column.has(e.from) || !column.has(e.to)) continue;
      const c = column.get(e.from)! + 1;
      if (c > column.get(e.to)! && c < nodes.length) {
        column.set(e.to, c);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const cols = new Map<number, string[]>();
  for (const n of [...nodes].sort()) {
    const c = column.get(n)!;
    cols.set(c, [...(cols.get(c) ?? []), n]);
  }
  const count = Math.max(1, ...cols.keys()) + 1;
  const out = new Map<string, Placed>();
  for (const [c, members] of cols) {
    members.forEach((id, i) => {
      out.set(id, {
        id, column: c,
        x: count === 1 ? width / 2 : 110 + (c * (width - 220)) / (count - 1),
        y: ((i + 1) * height) / (members.length + 1),
      });
    });
  }
  return out;
}
