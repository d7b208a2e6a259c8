// Live: refetch on a three-second timer while the list sits at its top, nobody is reading a row,
// and the user has not scrolled for a moment (architecture 8.2: a timer, not a stream).

const PERIOD_MS = 3000;
const QUIET_MS = 2000;

export function useLive(enabled: () => boolean, top: () => number, refetch: () => void): { scrolled: () => void } {
  let lastScroll = 0;
  $effect(() => {
    if (!enabled()) return;
    const t = setInterval(() => {
      if (document.hidden || top() > 0 || Date.now() - lastScroll < QUIET_MS) return;
      refetch();
    }, PERIOD_MS);
    return () => clearInterval(t);
  });
  return { scrolled: () => { lastScroll = Date.now(); } };
}
