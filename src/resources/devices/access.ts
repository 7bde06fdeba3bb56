/** Levels that may create, edit, delete, import and group devices: the domain's rule, also the server's. */
export { canEditDevices } from '../../domain/levels';
