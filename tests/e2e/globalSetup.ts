import type { TestProject } from 'vitest/node';
import { buildConsole, CHROMIUM, chromiumAvailable, skipBrowserTests } from './browser';
import { provideTemplate } from '../api/pgliteTemplate';

/** Builds the console once for every browser test file of the run; under CI a missing chromium stops the run here. */
export default async function setup(project: TestProject) {
  if (skipBrowserTests) return undefined;
  if (!chromiumAvailable)
    throw new Error(`CI: no chromium at ${CHROMIUM}; the browser tests cannot run (scripts/ensure-chromium.sh installs it)`);
  buildConsole();
  return provideTemplate(project);
}
