import { commandsApi } from '../api/commandsApi';
import { dataPlansApi } from '../api/dataPlansApi';
import { devicesApi } from '../api/devicesApi';
import { firmwareApi } from '../api/firmwareApi';
import { historyApi } from '../api/historyApi';
import { monitoringApi } from '../api/monitoringApi';
import { supportApi } from '../api/supportApi';
import { usersApi } from '../api/usersApi';
import { vesselApi } from '../api/vesselApi';

/**
 * The dataProvider's non-CRUD methods (statistics, tracks, the status monitor, fault clearing,
 * permission groups...): the API modules' calls, reached as dataProvider.call(module, name, ...args)
 * so that every page gets its data one way. Pages use them through useCallQuery/useCallMutation
 * (src/data/dataHooks.ts); errors come out as the dataProvider's (CzHttpError).
 */
export const DATA_CALLS = {
  commands: commandsApi,
  dataPlans: dataPlansApi,
  devices: devicesApi,
  firmware: firmwareApi,
  history: historyApi,
  monitoring: monitoringApi,
  support: supportApi,
  users: usersApi,
  vessel: vesselApi,
} as const;

export type DataCalls = typeof DATA_CALLS;
export type CallModule = keyof DataCalls;
export type CallName<M extends CallModule> = keyof DataCalls[M] & string;
type Fn<M extends CallModule, F extends CallName<M>> = DataCalls[M][F] extends (...args: infer A) => infer R ? (...args: A) => R : never;
export type CallArgs<M extends CallModule, F extends CallName<M>> = Parameters<Fn<M, F>>;
export type CallResult<M extends CallModule, F extends CallName<M>> = Awaited<ReturnType<Fn<M, F>>>;

export interface CallMethod {
  call<M extends CallModule, F extends CallName<M>>(module: M, name: F, ...args: CallArgs<M, F>): Promise<CallResult<M, F>>;
}
