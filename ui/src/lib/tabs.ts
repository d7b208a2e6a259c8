// The tabs other than logs, each a chunk of its own: the logs view is the first page's and is in
// the app's script, which is then 70 KB instead of 117 KB, and mounts sooner (docs/performance.md).
import type { Component } from 'svelte';
import type { Ctx } from './context';
import type { Tab } from './view';

export type LazyTab = Exclude<Tab, 'logs'>;
export type TabView = Component<{ ctx: Ctx }>;

const LOAD: Record<LazyTab, () => Promise<{ default: TabView }>> = {
  traces: () => import('../views/TracesView.svelte'),
  metrics: () => import('../views/MetricsView.svelte'),
  map: () => import('../views/MapView.svelte'),
  alerts: () => import('../views/AlertsView.svelte'),
};

const loading = new Map<LazyTab, Promise<TabView>>();

/** The tab's view, fetched once; a failed fetch is tried again on the next call. */
export function loadTab(tab: LazyTab): Promise<TabView> {
  let p = loading.get(tab);
  if (!p) {
    p = LOAD[tab]().then((m) => m.default);
    p.catch(() => loading.delete(tab));
    loading.set(tab, p);
  }
  return p;
}

/**
 * Fetches the traces view ahead, once the first rows are up and the page is idle: a log's trace
 * is the usual next step, and its waterfall should not wait for a chunk.
 */
export function prefetchTraces(): void {
  const go = () => { loadTab('traces').catch(() => {}); };
  const w = window as unknown as { requestIdleCallback?: (f: () => void, o: { timeout: number }) => number };
  if (w.requestIdleCallback) w.requestIdleCallback(go, { timeout: 2000 });
  else setTimeout(go, 200);
}
