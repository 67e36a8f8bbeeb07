import { openStorage } from '../backends';
import { runStorageConformance } from '../testing/suite';
import { MemoryStorage } from './index';

// Through the URL registry, as the apiserver opens it, and directly.
runStorageConformance('memory via openStorage', (options) => openStorage('memory://', options));
runStorageConformance('memory', async (options) => new MemoryStorage(options));
