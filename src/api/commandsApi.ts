import type { CommandInput, DeviceCommand } from '../domain/commands';
import { request } from './client';

const M = '/deviceModule/command';

/** Commands to antennas: what is not the command resource's CRUD (src/resources/commands). */
export const commandsApi = {
  /** Whether the caller may send commands to this vessel (levels 1 and 2; a sub-user where granted). */
  canSend: (deviceId: number, signal?: AbortSignal) => request<{ canSend: boolean }>(`${M}/canSend`, { query: { deviceId }, signal }),
  send: (body: CommandInput) => request<DeviceCommand>(`${M}/add`, { method: 'POST', json: body }),
  cancel: (id: number) => request<DeviceCommand>(`${M}/cancel`, { method: 'POST', query: { id } }),
};
