import { cleanup } from '@testing-library/preact';
import { afterEach } from 'vitest';

// Each test starts from an empty document.
afterEach(cleanup);
