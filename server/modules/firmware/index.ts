import type { ApiModule } from '../../http/api';
import { openFirmwareStore, sweepFirmwareFolder } from './storage';
import { fileDemoPackages } from './demoFiles';
import { firmwareRoutes } from './firmwareRoutes';
import { rolloutRoutes } from './rolloutRoutes';
import { deviceUpdateRoutes } from './deviceUpdateRoutes';

/**
 * Firmware: packages, rollouts and the device side of updates, mounted under
 * /cz/{segment}/deviceModule/firmware. The files live in the firmware folder (FIRMWARE_DIR).
 */
export const firmwareModule: ApiModule = async (app, context) => {
  const store = await openFirmwareStore(context.config);
  // Before the server listens: what a crash left half-done in the firmware folder is settled.
  await sweepFirmwareFolder(store, context.db);
  await fileDemoPackages(store, context.db);
  app.addHook('onClose', () => store.close());
  await firmwareRoutes(store)(app, context);
  await rolloutRoutes(app, context);
  await deviceUpdateRoutes(store)(app, context);
};
export { openFirmwareStore } from './storage';
