// Prints one plain closing line, "tests: N passed, N failed[, N skipped]", that
// CI reads whatever runner produced it.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    let line = `tests: ${results.numPassedTests} passed, ${failed} failed`;
    if (skipped) line += `, ${skipped} skipped`;
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
