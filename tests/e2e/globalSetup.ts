import { buildConsole, CHROMIUM, chromiumAvailable, skipBrowserTests } from './browser';

/** Builds the console once for every browser test file of the run; under CI a missing chromium stops the run here. */
export default function setup() {
  if (skipBrowserTests) return;
  if (!chromiumAvailable)
    throw new Error(`CI: no chromium at ${CHROMIUM}; the browser tests cannot run (scripts/ensure-chromium.sh installs it)`);
  buildConsole();
}
