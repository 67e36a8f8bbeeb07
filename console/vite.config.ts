import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';

// Served by the apiserver at /console/ (pkg/apiserver/console.ts); hashed file names under assets/.
export default defineConfig({
  base: '/console/',
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: true },
  test: { environment: 'happy-dom', include: ['src/**/*.test.{ts,tsx}'], setupFiles: ['src/test-setup.ts'] },
});
