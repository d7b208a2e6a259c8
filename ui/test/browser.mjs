// Drives Chromium (playwright-core, the system's browser) against a running Mira seeded by
// modules/server's UiSeed, checking each view against the API's own answers.
// usage: node test/browser.mjs BASE_URL FACTS_JSON SCREENSHOT_DIR CHROMIUM
// Prints one JSON document: {passed, failures, consoleErrors, measures, screenshots}; exits 1 on a failure.
import { chromium } from 'playwright-core';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const [base, factsJson, shots, executablePath] = process.argv.slice(2);
const facts = JSON.parse(factsJson);
const passed = [];
const failures = [];
const consoleErrors = [];
const measures = {};
const screenshots = [];
// The browser reports every 4xx it fetched; the one the bad-filter check provokes is expected.
let expectBadRequest = false;

function check(name, ok, detail) {
  if (ok) passed.push(name);
  else failures.push({ name, detail: detail === undefined ? null : JSON.stringify(detail).slice(0, 2000) });
}

async function api(path, body) {
  const res = await fetch(base + path, body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

function depths(rows) {
  const byId = new Map(rows.map((r) => [r.span_id, r]));
  const depth = (r, seen = new Set()) => {
    const p = byId.get(r.parent_span_id);
    if (!p || seen.has(r.span_id)) return 0;
    seen.add(r.span_id);
    return 1 + depth(p, seen);
  };
  return Object.fromEntries(rows.map((r) => [r.span_id, depth(r)]));
}

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ viewport: { width: 1400, height: 860 }, colorScheme: 'light' });

// When the first logs row and the big trace's first bars reached the DOM, by the page's own clock:
// the measures below say where the time between navigation and rows went.
function watchRows(bigSpans) {
  const seen = (window.__miraSeen = {});
  const wanted = { logsRow: 'section[aria-label=logs] .row', bigTraceBars: `.bars[data-spans="${bigSpans}"] .span` };
  new MutationObserver(() => {
    for (const [k, sel] of Object.entries(wanted)) if (!(k in seen) && document.querySelector(sel)) seen[k] = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true });
}
await context.addInitScript(watchRows, facts.bigTraceSpans);

async function newPage() {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (expectBadRequest && /status of 400/.test(m.text())) return;
    // The browser asks for /favicon.ico when it shows a page that is not HTML (the warm-up below).
    if (/status of 404/.test(m.text()) && m.location()?.url?.endsWith('/favicon.ico')) return;
    consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  return page;
}

async function shot(page, name) {
  await page.screenshot({ path: join(shots, name) });
  screenshots.push(name);
}

async function filter(page, text) {
  await page.keyboard.press('Escape');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('/');
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

async function waitIdle(page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(100);
}

async function texts(page, selector) {
  return page.locator(selector).allInnerTexts();
}

// Opens the logs view and measures the time to its first row: as the test sees it, and by the
// page's clock (ms since navigation) where it went.
async function firstRows(page, suffix) {
  const t0 = Date.now();
  await page.goto(base + '/#/logs');
  await page.waitForSelector('section[aria-label=logs] .row');
  const ms = Date.now() - t0;
  const parts = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource');
    const at = (re) => res.find((r) => re.test(r.name));
    const js = at(/index-[^/]*\.js$/), q = at(/\/api\/v1\/query/);
    const r = (x) => (x === undefined ? null : Math.round(x));
    const mark = (n) => r(performance.getEntriesByName(n)[0]?.startTime);
    return { html: r(nav?.responseEnd), scriptStart: r(js?.startTime), scriptFirstByte: r(js?.responseStart), script: r(js?.responseEnd),
      domInteractive: r(nav?.domInteractive), queryStart: r(q?.startTime), queryFirstByte: r(q?.responseStart), queryEnd: r(q?.responseEnd),
      mountStart: mark('mira:mount'), mounted: mark('mira:mounted'),
      parsed: mark('mira:logs-first-page'), rows: r(window.__miraSeen.logsRow) };
  });
  return { ['firstRows' + suffix + 'Ms']: ms, ['firstRows' + suffix + 'Parts']: parts };
}

try {
  const page = await newPage();

  // The browser starts this origin's renderer on its first visit; a visitor's browser is running
  // already, so that start is made here (on the health check, outside the UI) and not in the measure.
  await page.goto(base + '/health');
  // Logs: the first page, as the API gives it.
  Object.assign(measures, await firstRows(page, ''));
  await waitIdle(page);
  const all = await api('/api/v1/query', { signal: 'logs', from: '-1h', to: 'now', limit: 500 });
  const shownBodies = await texts(page, 'section[aria-label=logs] .row .b');
  check('logs: the first rows are the API\'s, in order', JSON.stringify(shownBodies.slice(0, 20))
    === JSON.stringify(all.json.rows.slice(0, 20).map((r) => r.body)), { shownBodies: shownBodies.slice(0, 5) });
  check('logs: the footer counts the page', (await page.locator('.count').innerText()).startsWith(all.json.rows.length + ' rows'));
  check('logs: the list is virtualized', (await page.locator('section[aria-label=logs] .row').count()) < 120);
  check('logs: severities are coloured', (await page.locator('.row .sev-error').count()) + (await page.locator('.row .sev-warn').count()) > 0);
  await shot(page, 'logs.png');

  // A typed filter shows the API's rows for the same text.
  const checkout = await api('/api/v1/query', { signal: 'logs', from: '-1h', to: 'now', limit: 500, q: 'service.name=checkout' });
  await filter(page, 'service.name=checkout');
  await page.waitForFunction(() => location.hash.includes('q=service.name'));
  await page.waitForFunction((n) => document.querySelector('.count')?.textContent?.startsWith(n + ' rows'), checkout.json.rows.length);
  await waitIdle(page);
  const checkoutShown = await texts(page, 'section[aria-label=logs] .row .b');
  check('filter: the typed filter shows the same rows as the API', checkout.json.rows.length > 0
    && JSON.stringify(checkoutShown) === JSON.stringify(checkout.json.rows.map((r) => r.body)), { checkoutShown });

  // A bad filter: the API's message, at its column.
  expectBadRequest = true;
  await filter(page, 'service.name=checkout code>');
  const bad = await api('/api/v1/query', { signal: 'logs', from: '-1h', to: 'now', limit: 500, q: 'service.name=checkout code>' });
  await page.waitForSelector('.filter .msg');
  const msg = await page.locator('.filter .msg').innerText();
  const column = await page.locator('.filter .msg').getAttribute('data-column');
  check('filter: an error shows the API\'s message verbatim', bad.status === 400 && msg === bad.json.error, { msg, api: bad.json });
  check('filter: the error names the offending column', String(bad.json.column) === column, { column, api: bad.json.column });
  const caret = await page.locator('.filter .caret').innerText();
  expectBadRequest = false;
  check('filter: the caret sits under that column', caret.split('\n')[1]?.indexOf('^') === bad.json.column - 1, { caret });

  // Row detail; a clicked attribute becomes a term.
  await filter(page, 'service.name=checkout');
  await page.waitForSelector('.filter .msg', { state: 'detached' });
  await waitIdle(page);
  await page.locator('section[aria-label=logs] .row', { hasText: 'cart query failed' }).click();
  await page.waitForSelector('aside[aria-label="log record"]');
  const detail = await page.locator('aside[aria-label="log record"]').innerText();
  check('logs: a row opens its detail with resource, entity and scope', detail.includes('co-1') && detail.includes('mira-ui-test')
    && /entity\s+[0-9a-f]{16}/.test(detail), { detail });
  await shot(page, 'log-detail.png');
  await page.locator('aside[aria-label="log record"] button[data-key="db.namespace"]').click();
  await page.waitForFunction(() => decodeURIComponent(location.hash).includes('db.namespace=shop'));
  await waitIdle(page);
  const q2 = await page.inputValue('input[name=q]');
  const shop = await api('/api/v1/query', { signal: 'logs', from: '-1h', to: 'now', limit: 500, q: q2 });
  check('logs: clicking an attribute adds it as a term', q2 === 'service.name=checkout db.namespace=shop'
    && JSON.stringify(await texts(page, 'section[aria-label=logs] .row .b')) === JSON.stringify(shop.json.rows.map((r) => r.body)), { q2 });

  // Frame from that row: traces and peers find both services of the trace.
  await page.locator('section[aria-label=logs] .row', { hasText: 'cart query failed' }).click();
  await page.locator('aside button[data-frame]').click();
  await page.waitForSelector('section[aria-label=frame] [data-frame-service]');
  await waitIdle(page);
  const row = shop.json.rows.find((r) => r.body === 'cart query failed: lock timeout');
  const anchorQ = q2 + ' trace_id=' + row.trace_id + ' span_id=' + row.span_id;
  const frame = await api('/api/v1/correlate', { anchor: { signal: 'logs', from: row.time_unix_nano, to: row.time_unix_nano, q: anchorQ, limit: 1 }, expand: ['traces', 'peers'] });
  const frameServices = (await page.locator('[data-frame-service]').evaluateAll((els) => els.map((e) => e.getAttribute('data-frame-service')))).sort();
  const apiServices = [...new Set(frame.json.frame.entities.map((e) => e['service.name']))].sort();
  check('frame: lists the services of the correlated frame', JSON.stringify(frameServices) === JSON.stringify(apiServices)
    && frameServices.includes('frontend'), { frameServices, apiServices });
  check('frame: lists its trace', (await page.locator(`[data-frame-trace="${facts.errorTrace}"]`).count()) === 1);
  check('frame: kept in the hash', page.url().includes('frame=traces%2Cpeers'), page.url());
  await shot(page, 'frame.png');
  await page.keyboard.press('Escape');
  check('keys: Esc closes the frame panel', (await page.locator('section[aria-label=frame]').count()) === 0);

  // The row's trace opens the waterfall.
  await page.locator('aside button[data-open-trace]').click();
  await page.waitForFunction((id) => location.hash.includes('trace=' + id), facts.errorTrace);
  await page.waitForSelector('.bars .span');
  await waitIdle(page);
  const tr = await api('/api/v1/traces/' + facts.errorTrace);
  const want = depths(tr.json.rows);
  const bars = await page.locator('.bars .span').evaluateAll((els) => els.map((e) => [e.getAttribute('data-span'), Number(e.getAttribute('data-depth'))]));
  check('waterfall: one bar per span', bars.length === tr.json.rows.length && tr.json.rows.length === 4, { bars: bars.length });
  check('waterfall: each bar nested under its parent', bars.every(([id, d]) => want[id] === d), { bars, want });
  const order = bars.map(([id]) => id);
  check('waterfall: a parent comes before its children', tr.json.rows.every((r) => !want[r.span_id] || order.indexOf(r.parent_span_id) < order.indexOf(r.span_id)));
  const dbSpan = tr.json.rows.find((r) => r.name === 'SELECT cart');
  check('waterfall: the failing span is marked', (await page.locator(`.span[data-span="${dbSpan.span_id}"] .errmark`).count()) === 1);
  check('waterfall: the critical path is highlighted', (await page.locator('.bars .bar.critical').count()) >= 1);
  check('waterfall: two service colours', (await page.locator('.legend .chip').count()) === 2);
  check('waterfall: the trace\'s logs are under their spans',
    (await page.locator(`[data-log-of="${dbSpan.parent_span_id}"]`, { hasText: 'cart query failed' }).count()) === 1);
  await page.locator(`.span[data-span="${dbSpan.span_id}"]`).click();
  await page.waitForSelector('aside[aria-label=span]');
  const spanDetail = await page.locator('aside[aria-label=span]').innerText();
  check('span detail: the exception is readable', spanDetail.includes('java.lang.IllegalStateException') && spanDetail.includes('cart table is locked'), { spanDetail });
  check('span detail: attributes', spanDetail.includes('postgresql'));
  await shot(page, 'waterfall.png');

  // The hash reproduces the view in a fresh page.
  const url = page.url();
  const fresh = await newPage();
  await fresh.goto(url);
  await fresh.waitForSelector('.bars .span.sel');
  check('hash: a fresh page shows the same trace and span', (await fresh.locator('.bars .span').count()) === bars.length
    && (await fresh.locator('.bars .span.sel').getAttribute('data-span')) === dbSpan.span_id
    && (await fresh.inputValue('input[name=q]')) === q2, url);
  await fresh.close();

  // Collapse, keyboard, Esc.
  const rootSpan = tr.json.rows.find((r) => !r.parent_span_id);
  await page.locator(`.span[data-span="${rootSpan.span_id}"] button.fold`).click();
  check('waterfall: a subtree collapses', (await page.locator('.bars .span').count()) === 1);
  await page.locator(`.span[data-span="${rootSpan.span_id}"] button.fold`).click();
  await page.keyboard.press('Escape');
  check('keys: Esc closes the span detail', (await page.locator('aside[aria-label=span]').count()) === 0);

  // A link opens the linked trace.
  await page.goto(base + '/#/traces?trace=' + facts.cartTraces[1]);
  await page.waitForSelector('.bars .span');
  const linked = (await api('/api/v1/traces/' + facts.cartTraces[1])).json.rows.find((r) => r.links.length > 0);
  await page.locator(`.span[data-span="${linked.span_id}"]`).click();
  await page.locator(`button[data-link-trace="${facts.cartTraces[0]}"]`).click();
  await page.waitForFunction((id) => location.hash.includes('trace=' + id), facts.cartTraces[0]);
  check('links: a link opens the linked trace', true);

  // A pasted trace id opens it.
  await page.goto(base + '/#/logs');
  await page.waitForSelector('section[aria-label=logs] .row');
  await filter(page, facts.errorTrace.toUpperCase());
  await page.waitForFunction((id) => location.hash.includes('trace=' + id), facts.errorTrace);
  await page.waitForSelector('.bars .span');
  check('filter: a pasted trace id opens the trace', (await page.locator('.bars .span').count()) === 4);

  // Traces list: the API's spans for a filter; j/k move; the hash.
  const errs = await api('/api/v1/query', { signal: 'traces', from: '-1h', to: 'now', limit: 500, q: 'status_code=2' });
  await page.goto(base + '/#/traces?q=' + encodeURIComponent('status_code=2'));
  await page.waitForFunction((n) => document.querySelector('.count')?.textContent?.startsWith(n + ' spans'), errs.json.rows.length);
  const names = await texts(page, 'section[aria-label=spans] .row .n');
  check('traces: the list is the API\'s spans with duration and status', JSON.stringify(names) === JSON.stringify(errs.json.rows.map((r) => r.name))
    && (await page.locator('section[aria-label=spans] .row .st.err').count()) === errs.json.rows.length, { names });
  await page.goto(base + '/#/traces');
  const everySpan = await api('/api/v1/query', { signal: 'traces', from: '-1h', to: 'now', limit: 500 });
  // The previous list's rows are on screen until the new answer replaces them.
  await page.waitForFunction((n) => document.querySelector('.count')?.textContent?.startsWith(n + ' spans'), everySpan.json.rows.length);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  check('keys: j moves down the list', (await page.locator('section[aria-label=spans] .row.sel').getAttribute('data-row')) === '1');
  await page.keyboard.press('k');
  check('keys: k moves up', (await page.locator('section[aria-label=spans] .row.sel').getAttribute('data-row')) === '0');
  await page.keyboard.press('/');
  check('keys: / focuses the filter', await page.evaluate(() => document.activeElement?.getAttribute('name') === 'q'));
  await page.keyboard.press('Escape');
  await shot(page, 'traces.png');

  // Map: the seeded edges, the virtual database, a click filters.
  await page.goto(base + '/#/map');
  await page.waitForSelector('svg .node');
  await waitIdle(page);
  const map = await api('/api/v1/map', { from: '-1h', to: 'now' });
  const edgesShown = (await page.locator('g[data-edge]').evaluateAll((els) => els.map((e) => e.getAttribute('data-edge')))).sort();
  const edgesApi = map.json.edges.map((e) => e.from + '->' + e.to).sort();
  check('map: the API\'s edges are drawn', JSON.stringify(edgesShown) === JSON.stringify(edgesApi) && edgesApi.includes('frontend->checkout'), { edgesShown, edgesApi });
  const virtual = map.json.nodes.filter((n) => n.virtual).map((n) => n.service);
  check('map: a virtual node is drawn distinctly', virtual.length === 1
    && (await page.locator(`g.node.virtual[data-node="${virtual[0]}"] rect`).count()) === 1, { virtual });
  check('map: one node per service', (await page.locator('g.node').count()) === map.json.nodes.length);
  await shot(page, 'map.png');
  await page.locator('g[data-edge="frontend->checkout"] text').click();
  await page.waitForFunction(() => location.hash.startsWith('#/traces') && decodeURIComponent(location.hash).includes('service.name=checkout'));
  const callee = await api('/api/v1/query', { signal: 'traces', from: '-1h', to: 'now', limit: 500, q: 'service.name=checkout' });
  const calleeShown = await page.waitForFunction((n) => document.querySelector('.count')?.textContent?.startsWith(n + ' spans'),
    callee.json.rows.length, { timeout: 10000 }).then(() => true, () => false);
  check('map: clicking an edge lists the callee\'s spans', callee.json.rows.length > 0 && calleeShown, callee.json.rows.length);
  await page.goto(base + '/#/map');
  await page.waitForSelector('svg .node');
  await page.locator('g.node[data-node="checkout"]').click();
  await page.waitForFunction(() => location.hash.startsWith('#/traces') && decodeURIComponent(location.hash).includes('service.name=checkout'));
  check('map: clicking a node filters to it', true);

  // Metrics: the list, a chart per series, functions.
  await page.goto(base + '/#/metrics');
  await page.waitForSelector('button[data-metric]');
  const ms = await api('/api/v1/metrics?from=-1h&to=now');
  const listed = await page.locator('button[data-metric]').evaluateAll((els) => els.map((e) => e.getAttribute('data-metric')));
  check('metrics: the list is the API\'s, with type and unit', JSON.stringify(listed) === JSON.stringify(ms.json.metrics.map((m) => m.name))
    && (await page.locator('button[data-metric="http.server.request.duration"]').innerText()).includes('histogram · ms'), { listed });
  await page.locator('button[data-metric="http.server.requests"]').click();
  await page.waitForSelector('.chart canvas');
  await waitIdle(page);
  const raw = await api('/api/v1/series', { name: 'http.server.requests', from: '-1h', to: 'now', max_series: 50, max_points: 2000 });
  check('metrics: a legend entry per series', (await page.locator('.legend .item').count()) === raw.json.series.length && raw.json.series.length > 0);
  await page.goto(base + '/#/metrics?name=http.server.request.duration&fn=quantile&quantile=0.5&step=1m');
  await page.waitForSelector('.chart canvas');
  await waitIdle(page);
  const p50 = await api('/api/v1/series', { name: 'http.server.request.duration', from: '-1h', to: 'now', max_series: 50, max_points: 2000, step: '1m', fn: 'quantile', quantile: 0.5 });
  check('metrics: a quantile series from the hash', p50.status === 200 && (await page.locator('.legend .item').count()) === p50.json.series.length, p50.json);
  const box = await page.locator('.chart canvas').boundingBox();
  await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2);
  check('metrics: hovering shows values', (await page.locator('.chart .hover').count()) === 1);
  await page.goto(base + '/#/metrics?name=http.server.request.duration');
  await page.waitForSelector('.chart canvas');
  await waitIdle(page);
  const counts = await api('/api/v1/series', { name: 'http.server.request.duration.count', from: '-1h', to: 'now', max_series: 50, max_points: 2000 });
  const exemplars = counts.json.series.flatMap((x) => x.exemplars ?? []).filter((e) => e.trace_id);
  check('metrics: exemplars are drawn as points', exemplars.length > 0
    && (await page.locator('[data-exemplar-trace]').count()) === exemplars.length, { exemplars: exemplars.length });
  const chartBox = await page.locator('.chart canvas').boundingBox();
  await page.mouse.move(chartBox.x + chartBox.width * 0.3, chartBox.y + chartBox.height / 2);
  await shot(page, 'metrics.png');
  const ex = await page.locator('[data-exemplar-trace]').first().getAttribute('data-exemplar-trace');
  await page.locator('[data-exemplar-trace]').first().click();
  await page.waitForFunction((id) => location.hash.startsWith('#/traces') && location.hash.includes('trace=' + id), ex);
  await page.waitForSelector('.bars .span');
  check('metrics: an exemplar opens its trace', facts.cartTraces.includes(ex), ex);

  // Alerts: this node runs none.
  await page.goto(base + '/#/alerts');
  await page.waitForSelector('section[aria-label=alerts] .empty');
  check('alerts: says alerting is off', (await page.locator('section[aria-label=alerts]').innerText()).includes('Alerting is off'));

  // Live: a record sent while the list is watched appears by the timer, with no reload.
  await page.goto(base + '/#/logs?q=' + encodeURIComponent('service.name=live-probe') + '&live=1');
  await page.waitForSelector('section[aria-label=logs] .empty');
  const sent = Date.now();
  const otlp = await fetch(base + '/v1/logs', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ resourceLogs: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'live-probe' } }] },
      scopeLogs: [{ logRecords: [{ timeUnixNano: String(BigInt(Date.now()) * 1000000n), severityNumber: 9, body: { stringValue: 'live probe' } }] }] }] }),
  });
  check('live: the probe export was accepted', otlp.status === 200, otlp.status);
  await page.waitForSelector('section[aria-label=logs] .row', { timeout: 10000 });
  measures.liveAppearMs = Date.now() - sent;
  check('live: a new record appears within two refetch periods', measures.liveAppearMs < 7000
    && (await texts(page, 'section[aria-label=logs] .row .b'))[0] === 'live probe', measures.liveAppearMs);

  // Measures: the big trace's waterfall, and 10,000 log rows scrolling.
  await page.evaluate(() => performance.mark('test:open-big-trace'));
  const b0 = Date.now();
  await page.goto(base + '/#/traces?trace=' + facts.bigTrace);
  // Rendered: the whole trace laid out and its first screen of bars in the DOM (the rest are drawn
  // as they scroll into sight, and checked below).
  await page.waitForFunction((n) => document.querySelector('.bars')?.getAttribute('data-spans') === String(n)
    && document.querySelectorAll('.bars .span').length > 0, facts.bigTraceSpans, { timeout: 60000 });
  measures.bigTraceRenderMs = Date.now() - b0;
  measures.bigTraceParts = await page.evaluate((id) => {
    const t0 = performance.getEntriesByName('test:open-big-trace').at(-1).startTime;
    const last = (name) => performance.getEntriesByName(name).at(-1);
    const res = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/v1/traces/' + id)).at(-1);
    const r = (x) => (x === undefined ? null : Math.round(x - t0));
    return { answerStart: r(res?.startTime), answerFirstByte: r(res?.responseStart), answerEnd: r(res?.responseEnd), answerBytes: res?.encodedBodySize ?? null, bodyBytes: res?.decodedBodySize ?? null, parsed: r(last('mira:trace-answer')?.startTime),
      laidOut: r(last('mira:trace-layout')?.startTime), rendered: r(window.__miraSeen.bigTraceBars) };
  }, facts.bigTrace);
  const big = await api('/api/v1/traces/' + facts.bigTrace);
  measures.bigTraceStats = big.json.stats;
  // Every span, by scrolling the waterfall from top to bottom a screen at a time: once each, at the
  // depth its parent chain gives it, after its parent.
  const walked = await page.evaluate(async () => {
    const vp = document.querySelector('.bars .viewport');
    const depth = {};
    const order = [];
    let inDom = 0;
    vp.scrollTop = 0;
    for (let screen = 0; screen < 1000; screen++) {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const els = document.querySelectorAll('.bars .span');
      inDom = Math.max(inDom, els.length);
      for (const e of els) {
        const id = e.getAttribute('data-span');
        if (id in depth) continue;
        depth[id] = Number(e.getAttribute('data-depth'));
        order.push(id);
      }
      if (vp.scrollTop + vp.clientHeight >= vp.scrollHeight - 1) break;
      vp.scrollTop += vp.clientHeight;
    }
    return { depth, order, inDom };
  });
  const bigWant = depths(big.json.rows);
  const bigAt = new Map(walked.order.map((id, i) => [id, i]));
  check('waterfall: the 2,000-span trace has one bar per span', big.json.rows.length === facts.bigTraceSpans
    && walked.order.length === facts.bigTraceSpans && big.json.rows.every((r) => bigAt.has(r.span_id)), { walked: walked.order.length });
  check('waterfall: the big trace\'s bars are nested under their parents', big.json.rows.every((r) => walked.depth[r.span_id] === bigWant[r.span_id]
    && (!bigWant[r.span_id] || bigAt.get(r.parent_span_id) < bigAt.get(r.span_id))), { sample: walked.order.slice(0, 10) });
  check('waterfall: the big trace is nested', Math.max(...Object.values(walked.depth)) >= 6);
  check('waterfall: the big trace is virtualized', walked.inDom < 120, walked.inDom);
  // A span at the bottom of the big trace, selected by the hash, is scrolled into sight; k moves up.
  const lastId = walked.order.at(-1);
  await page.goto(base + '/#/traces?trace=' + facts.bigTrace + '&span=' + lastId);
  await page.waitForSelector(`.bars .span.sel[data-span="${lastId}"]`);
  const inSight = async (id) => page.evaluate((sel) => {
    const e = document.querySelector(sel);
    const vp = document.querySelector('.bars .viewport').getBoundingClientRect();
    const r = e?.getBoundingClientRect();
    return !!r && r.top >= vp.top - 1 && r.bottom <= vp.bottom + 1;
  }, `.bars .span[data-span="${id}"]`);
  check('waterfall: a selected span far down the big trace is scrolled into sight', await inSight(lastId));
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('k');
  const prevId = walked.order.at(-2);
  await page.waitForFunction((id) => location.hash.includes('span=' + id), prevId, { timeout: 5000 }).catch(() => {});
  check('keys: k moves up the big trace', (await page.locator('.bars .span.sel').getAttribute('data-span')) === prevId && await inSight(prevId));

  await page.goto(base + '/#/logs?q=' + encodeURIComponent('service.name=bulk'));
  await page.waitForSelector('section[aria-label=logs] .row');
  for (let i = 0; i < 40; i++) {
    const n = await page.locator('.count').innerText();
    if (n.startsWith(facts.bulkLogs + ' rows') || (await page.locator('button[data-older]').count()) === 0) break;
    await page.locator('button[data-older]').click();
    await page.waitForFunction((prev) => document.querySelector('.count')?.textContent !== prev, n);
  }
  const total = await page.locator('.count').innerText();
  check('logs: keyset paging reaches every row', total.startsWith(facts.bulkLogs + ' rows'), total);
  const scroll = await page.evaluate(async () => {
    const vp = document.querySelector('section[aria-label=logs] .viewport');
    const frames = [];
    let last = performance.now();
    const end = last + 2000;
    vp.scrollTop = 0;
    while (performance.now() < end) {
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
      vp.scrollTop += 220;
    }
    frames.sort((a, b) => a - b);
    return { frames: frames.length, p50: frames[Math.floor(frames.length / 2)], p95: frames[Math.floor(frames.length * 0.95)],
      max: frames[frames.length - 1], rowsInDom: document.querySelectorAll('section[aria-label=logs] .row').length, top: vp.scrollTop };
  });
  measures.scroll10k = scroll;
  check('logs: 10,000 rows scroll with few rows in the DOM', scroll.rowsInDom < 120 && scroll.top > 0, scroll);

  // The first rows again, for a new visitor (nothing cached) of a node that has been answering for
  // a while: the figure above includes the node's first query since it started.
  const visitor = await browser.newContext({ viewport: { width: 1400, height: 860 }, colorScheme: 'light' });
  await visitor.addInitScript(watchRows, facts.bigTraceSpans);
  const vp = await visitor.newPage();
  vp.on('pageerror', (e) => consoleErrors.push(String(e)));
  await vp.goto(base + '/health');
  Object.assign(measures, await firstRows(vp, 'Warm'));
  await visitor.close();

  // Dark: the same trace in the other scheme.
  const dark = await browser.newContext({ viewport: { width: 1400, height: 860 }, colorScheme: 'dark' });
  const dp = await dark.newPage();
  dp.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  await dp.goto(base + '/#/traces?trace=' + facts.errorTrace + '&span=' + dbSpan.span_id);
  await dp.waitForSelector('aside[aria-label=span]');
  await dp.waitForLoadState('networkidle');
  const bg = await dp.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check('dark: prefers-color-scheme switches the palette', bg === 'rgb(21, 23, 28)', bg);
  await dp.screenshot({ path: join(shots, 'waterfall-dark.png') });
  screenshots.push('waterfall-dark.png');
  await dark.close();

  // The bundle as shipped.
  const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  let gz = 0, rawBytes = 0;
  for (const dir of ['', 'assets']) {
    for (const f of readdirSync(join(dist, dir), { withFileTypes: true })) {
      if (!f.isFile() || f.name === 'bundle.txt') continue;
      const b = readFileSync(join(dist, dir, f.name));
      rawBytes += b.length;
      gz += gzipSync(b, { level: 9 }).length;
    }
  }
  measures.bundleBytes = rawBytes;
  measures.bundleGzipBytes = gz;
  check('bundle: under 200 KB gzipped', gz < 200 * 1024, gz);
} catch (e) {
  failures.push({ name: 'script', detail: String(e && e.stack || e) });
} finally {
  await browser.close();
}

console.log(JSON.stringify({ passed, failures, consoleErrors, measures, screenshots }, null, 1));
process.exit(failures.length || consoleErrors.length ? 1 : 0);
