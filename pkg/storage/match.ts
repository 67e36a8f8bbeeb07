/** Selector matching lives in pkg/api; re-exported here for storage code that reads it from its own layer. */
export { fieldMatches, labelMatches, labelsMatch } from '../api/selector-match';
