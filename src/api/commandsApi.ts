import type { CommandInput, DeviceCommand } from '../domain/commands';
import { ErrorCode } from '../domain/errorCodes';
import { request } from './client';
import { isApiError } from './errors';

const M = '/deviceModule/command';

/** What sending one command to several vessels came to: the commands made, and the vessels refused with the server's reason. */
export interface SentToMany {
  sent: DeviceCommand[];
  refused: { deviceId: number; message: string }[];
}
/** Refusals of one vessel among many are gathered into one summary, not a message each (a session's codes still show). */
const QUIET_PER_VESSEL = [ErrorCode.Validation, ErrorCode.NotFound, ErrorCode.Forbidden, ErrorCode.BadRequest, ErrorCode.PermissionDenied];

/** Commands to antennas: what is not the command resource's CRUD (src/resources/commands). */
export const commandsApi = {
  /** Whether the caller may send commands to this vessel (levels 1 and 2; a sub-user where granted). */
  canSend: (deviceId: number, signal?: AbortSignal) => request<{ canSend: boolean }>(`${M}/canSend`, { query: { deviceId }, signal }),
  send: (body: CommandInput) => request<DeviceCommand>(`${M}/add`, { method: 'POST', json: body }),
  /** The same command to each vessel (one command/add each, at once). */
  async sendToMany(deviceIds: readonly number[], body: CommandInput): Promise<SentToMany> {
    const answers = await Promise.allSettled(
      deviceIds.map((deviceId) =>
        request<DeviceCommand>(`${M}/add`, { method: 'POST', json: { ...body, deviceId }, quiet: QUIET_PER_VESSEL }),
      ),
    );
    const out: SentToMany = { sent: [], refused: [] };
    answers.forEach((a, i) => {
      if (a.status === 'fulfilled') out.sent.push(a.value);
      else
        out.refused.push({ deviceId: deviceIds[i]!, message: isApiError(a.reason) ? a.reason.msg : String((a.reason as Error).message) });
    });
    return out;
  },
  cancel: (id: number) => request<DeviceCommand>(`${M}/cancel`, { method: 'POST', query: { id } }),
};
