import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';
import { precompress } from './precompress.ts';

const TESTS = 'src/**/*.test.{ts,tsx}';
// Test files share one environment per worker (no isolation): a fresh happy-dom and module graph for each of forty
// files cost over a minute of the two cores' time, the tests themselves a few seconds. Each test starts from an
// empty document, the real globals and no session (src/test-setup.ts). A file that replaces a module with vi.mock
// runs isolated, since a module another file already loaded would keep its real import.
const MOCKING = readdirSync(`${import.meta.dirname}/src`, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `src/${file}`)
  .filter((file) => readFileSync(`${import.meta.dirname}/${file}`, 'utf8').includes('vi.mock('));

// Served by the apiserver at /console/ (pkg/apiserver/console.ts); hashed file names under assets/, each with
// its brotli and gzip forms beside it.
export default defineConfig({
  base: '/console/',
  plugins: [preact(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: true },
  test: {
    environment: 'happy-dom',
    setupFiles: ['src/test-setup.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: [TESTS], exclude: MOCKING, pool: 'threads', isolate: false } },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
    ],
  },
});
