/**
 * Codes of the /cz envelope. The negative ones are those of docs/requirements.md §8; the positive ones are ours
 * (validation, permission and input errors), each with a message in the request's language.
 */
export const ErrorCode = {
  Ok: 0,
  Validation: 1,
  NotFound: 2,
  Forbidden: 3,
  TokenMissing: 4,
  TokenInvalid: 5,
  LoginFailed: 6,
  LoginLocked: 7,
  UploadRejected: 8,
  Duplicate: 9,
  RouteNotFound: 10,
  HasDependents: 11,
  BadRequest: 12,
  /** A device's number or secret did not match (ingest). */
  DeviceAuthFailed: 13,
  /** A firmware package was sent to devices of another type, model or customer (data: those devices). */
  FirmwareMismatch: 14,
  /** A rollout would install an older version than devices run, without allowDowngrade (data: those devices). */
  FirmwareDowngrade: 15,
  /** The caller's permission groups do not grant this action (data.permission names it). */
  PermissionDenied: 20,
  LoggedInElsewhere: -24,
  SessionTimeout: -26,
  Busy: -100,
  ExportTooFrequent: -101,
  KickedOut: -124,
  KickedOutByAdmin: -125,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The message key (see messages.ts) that explains each code. */
export const errorMessageKey: Record<ErrorCode, string> = {
  [ErrorCode.Ok]: 'error.ok',
  [ErrorCode.Validation]: 'error.validation',
  [ErrorCode.NotFound]: 'error.notFound',
  [ErrorCode.Forbidden]: 'error.forbidden',
  [ErrorCode.TokenMissing]: 'error.tokenMissing',
  [ErrorCode.TokenInvalid]: 'error.tokenInvalid',
  [ErrorCode.LoginFailed]: 'error.loginFailed',
  [ErrorCode.LoginLocked]: 'error.loginLocked',
  [ErrorCode.UploadRejected]: 'error.uploadRejected',
  [ErrorCode.Duplicate]: 'error.duplicate',
  [ErrorCode.RouteNotFound]: 'error.routeNotFound',
  [ErrorCode.HasDependents]: 'error.hasDependents',
  [ErrorCode.BadRequest]: 'error.badRequest',
  [ErrorCode.DeviceAuthFailed]: 'error.deviceAuth',
  [ErrorCode.FirmwareMismatch]: 'error.firmwareMismatch',
  [ErrorCode.FirmwareDowngrade]: 'error.firmwareDowngrade',
  [ErrorCode.PermissionDenied]: 'error.permissionDenied',
  [ErrorCode.LoggedInElsewhere]: 'error.loggedInElsewhere',
  [ErrorCode.SessionTimeout]: 'error.sessionTimeout',
  [ErrorCode.Busy]: 'error.busy',
  [ErrorCode.ExportTooFrequent]: 'error.exportTooFrequent',
  [ErrorCode.KickedOut]: 'error.kickedOut',
  [ErrorCode.KickedOutByAdmin]: 'error.kickedOut',
};
