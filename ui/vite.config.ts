import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The server serves exactly the files named in bundle.txt (modules/server, mira.server.ui.Bundle),
// so the list is written by the build that wrote the files.
function bundleList(): Plugin {
  return {
    name: 'mira-bundle-list',
    enforce: 'post',
    // After every plugin has emitted (index.html and the stylesheet come last), so the list is whole.
    writeBundle(options, bundle) {
      const names = Object.keys(bundle).sort();
      writeFileSync(join(options.dir!, 'bundle.txt'), names.join('\n') + '\n');
    },
  };
}

// The boot script (src/boot) is an entry of its own, built like the app and then written into
// index.html as an inline classic script right after the charset: the HTML parser runs it as it
// reaches it, so the first query leaves before the browser has even asked for the app's script
// (as a file of its own it left 98-232 ms after navigation start, docs/performance.md). The server
// allows exactly this script by its hash in the Content-Security-Policy (mira.server.ui.Bundle).
function bootInline(): Plugin {
  let bootFile: string | null = null;
  return {
    name: 'mira-boot-inline',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const boot = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.isEntry && c.name === 'boot');
        if (!boot || boot.type !== 'chunk') throw new Error('the build has no boot chunk');
        // A classic script cannot import, and the HTML parser would end it at a closing tag.
        if (boot.imports.length > 0 || boot.exports.length > 0) throw new Error('the boot chunk imports or exports: ' + boot.fileName);
        const code = boot.code.trim();
        if (/<\/script|<!--/i.test(code)) throw new Error('the boot chunk holds text that would end an inline script');
        const charset = '<meta charset="utf-8" />';
        if (!html.includes(charset)) throw new Error('index.html has no ' + charset);
        bootFile = boot.fileName;
        // In a function, so its names stay out of the page's global scope.
        return html.replace(charset, () => `${charset}\n    <script>(()=>{${code}})();</script>`);
      },
    },
    // Inlined, so not a file of the bundle (and not listed in bundle.txt).
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        if (!bootFile) throw new Error('index.html was not given the boot script');
        delete bundle[bootFile];
      },
    },
  };
}

export default defineConfig({
  base: '/',
  plugins: [svelte(), bootInline(), bundleList()],
  build: {
    outDir: process.env.MIRA_UI_OUT ?? 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // index.html (with the boot script in it), the app's script and one stylesheet: three requests
    // before the logs view's first rows; every other tab is a chunk fetched when first shown
    // (src/lib/tabs.ts). The boot script shares no module with the app, or its chunk would import
    // one and the build stops.
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rollupOptions: {
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), boot: fileURLToPath(new URL('./src/boot/main.ts', import.meta.url)) },
      output: { manualChunks: undefined },
    },
  },
  test: {
    include: ['test/unit/**/*.test.ts'],
    environment: 'node',
  },
});
