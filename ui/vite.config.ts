import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

export default defineConfig({
  base: '/',
  plugins: [svelte(), bundleList()],
  build: {
    outDir: process.env.MIRA_UI_OUT ?? 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // One script and one stylesheet: three requests for the whole UI, each an ETag revalidation.
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rollupOptions: { output: { manualChunks: undefined } },
  },
  test: {
    include: ['test/unit/**/*.test.ts'],
    environment: 'node',
  },
});
