// Jest global teardown: stops the Swift that globalSetup.cjs started and removes its folder.
// Cleaning up never fails the run: a folder the stopping servers still write into is retried,
// and if it still cannot go it is left in the temporary directory with a warning.
const { rmSync } = require('node:fs');

module.exports = async function globalTeardown() {
  const dir = process.env.DOSSIER_TEST_SWIFT_DIR;
  if (!dir) return;
  const { stopSwift } = await import('../scripts/swift.mjs');
  stopSwift(dir);
  // The servers need a moment to let go of their files.
  await new Promise((resolve) => setTimeout(resolve, 500));
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (error) {
    console.warn(`[s3 suites] could not remove ${dir}: ${error.message}`);
  }
};
