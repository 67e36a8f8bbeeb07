import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';
import { precompress } from './precompress.ts';

// Served by the apiserver at /console/ (pkg/apiserver/console.ts); hashed file names under assets/, each with
// its brotli and gzip forms beside it.
export default defineConfig({
  base: '/console/',
  plugins: [preact(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: true },
  test: { environment: 'happy-dom', include: ['src/**/*.test.{ts,tsx}'], setupFiles: ['src/test-setup.ts'] },
});
