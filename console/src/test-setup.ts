import { cleanup } from '@testing-library/preact';
import { afterEach, vi } from 'vitest';

// Each test starts from an empty document, the real `fetch` and no session (node-environment tests have no storage).
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
});
