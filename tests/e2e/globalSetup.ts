import { buildConsole, chromiumAvailable } from './browser';

/** Builds the console once for every browser test file of the run. */
export default function setup() {
  if (chromiumAvailable) buildConsole();
}
