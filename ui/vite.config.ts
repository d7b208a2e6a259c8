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

// The boot script (src/boot) is an entry of its own, put first in index.html and loaded async: it
// runs as soon as it arrives, before the app's script is even compiled, and sends the first query.
function bootFirst(): Plugin {
  return {
    name: 'mira-boot-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const boot = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.isEntry && c.name === 'boot');
        if (!boot) throw new Error('the build has no boot chunk');
        const charset = '<meta charset="utf-8" />';
        if (!html.includes(charset)) throw new Error('index.html has no ' + charset);
        return html.replace(charset, `${charset}\n    <script type="module" async crossorigin src="/${boot.fileName}"></script>`);
      },
    },
  };
}

export default defineConfig({
  base: '/',
  plugins: [svelte(), bootFirst(), bundleList()],
  build: {
    outDir: process.env.MIRA_UI_OUT ?? 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The boot script, one script and one stylesheet: four requests for the whole UI, each an ETag
    // revalidation (the boot script shares no module with the app, or a fifth would appear).
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
