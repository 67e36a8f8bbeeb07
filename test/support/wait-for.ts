/** How tests wait for a condition: pkg/util's, shared with the benchmarks. */
export { waitFor } from '../../pkg/util/wait-for';
