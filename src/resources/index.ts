import type { ResourceEndpoints } from '../resourceEndpoints';
import type { ResourceDefinition } from './types';
import { usersResource } from './users/definition';
import { extraLinksResource } from './extraLinks/definition';
import { devicesResource } from './devices/definition';
import { deviceAuthResource } from './deviceAuth/definition';
import { afterSalesResource } from './afterSales/definition';
import { firmwareResource } from './firmware/definition';
import { auditLogResource } from './auditLog/definition';

/** Every schema-driven resource. Adding an entity: one definition here plus its messages. */
export const RESOURCES: readonly ResourceDefinition[] = [usersResource, extraLinksResource, devicesResource, deviceAuthResource, afterSalesResource, firmwareResource, auditLogResource];

export const ENDPOINTS: Record<string, ResourceEndpoints> = Object.fromEntries(RESOURCES.map((r) => [r.name, r.endpoints]));
