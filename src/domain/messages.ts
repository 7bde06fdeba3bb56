import type { Language } from './constants';

/**
 * Messages the server and the console both show: validation rules (SPEC section 5) and the
 * envelope's error codes. The console's i18n tables include these under the same keys.
 */
const zh = {
  'validation.required': '必填项',
  'validation.requiredNotEmpty': '必填项不能为空',
  'validation.nameRequired': '用户名不能为空',
  'validation.namePattern': '用户名必须是由2-16位小写字母组成',
  'validation.email': '请输入正确的邮箱',
  'validation.passwordLength': '密码长度为6-18位',
  'validation.passwordMismatch': '两次输入的密码不一致',
  'validation.level': '权限级别只能是 1、2 或 3',
  'validation.parentRequired': '子用户必须属于一个企业用户',
  'validation.tooLong': '内容过长',
  'validation.integer': '必须是整数',
  'validation.invalid': '格式不正确',
  'error.ok': '成功',
  'error.validation': '输入有误',
  'error.notFound': '记录不存在',
  'error.forbidden': '没有权限执行此操作',
  'error.tokenMissing': '未登录，请先登录',
  'error.tokenInvalid': '登录已失效，请重新登录',
  'error.loginFailed': '用户名或密码错误',
  'error.loginLocked': '登录失败次数过多，请 %{minutes} 分钟后再试',
  'error.uploadRejected': '上传的文件不符合要求',
  'error.uploadType': '只能上传 JPG 或 PNG 图片',
  'error.uploadSize': '图片大小不能超过 2MB',
  'error.uploadMissing': '请选择要上传的文件',
  'error.fileType': '文件类型必须是 1、2、3 或 4',
  'error.duplicate': '已存在',
  'error.duplicateName': '用户名已存在',
  'error.routeNotFound': '接口不存在',
  'error.hasDependents': '该用户下还有子用户，不能删除',
  'error.badRequest': '请求格式错误',
  'error.cannotDeleteSelf': '不能删除当前登录的账号',
  'error.cannotDeleteSuperUser': '不能删除超级管理员',
  'error.loggedInElsewhere': '同一账号同时只能在一个终端登录，您的账号已下线，请重新登录。',
  'error.sessionTimeout': '操作超时，请重新登录',
  'error.busy': '服务器繁忙，请稍后再试',
  'error.exportTooFrequent': '请勿频繁导出数据，请等待 10 秒后再试',
  'error.kickedOut': '该账号已在其他地方登录，您已被登出',
  'error.internal': '服务器内部错误',
} as const;

export type DomainMessageKey = keyof typeof zh;

const en: Record<DomainMessageKey, string> = {
  'validation.required': 'required',
  'validation.requiredNotEmpty': 'This field must not be empty',
  'validation.nameRequired': 'Username cannot be empty',
  'validation.namePattern': 'Username must be 2-16 lowercase letters',
  'validation.email': 'Please enter a correct email address',
  'validation.passwordLength': 'Password length should be between 6 and 18 characters',
  'validation.passwordMismatch': 'The entered passwords are inconsistent',
  'validation.level': 'The permission level must be 1, 2 or 3',
  'validation.parentRequired': 'A sub-user must belong to an enterprise user',
  'validation.tooLong': 'Too long',
  'validation.integer': 'Must be a whole number',
  'validation.invalid': 'Invalid value',
  'error.ok': 'Success',
  'error.validation': 'Invalid input',
  'error.notFound': 'No such record',
  'error.forbidden': 'You are not allowed to do this',
  'error.tokenMissing': 'Not logged in, please log in',
  'error.tokenInvalid': 'Your session is no longer valid, please log in again',
  'error.loginFailed': 'Wrong username or password',
  'error.loginLocked': 'Too many failed logins, try again in %{minutes} minutes',
  'error.uploadRejected': 'The uploaded file was refused',
  'error.uploadType': 'Only JPG or PNG images can be uploaded',
  'error.uploadSize': 'The image must not be larger than 2MB',
  'error.uploadMissing': 'Choose a file to upload',
  'error.fileType': 'The file type must be 1, 2, 3 or 4',
  'error.duplicate': 'Already exists',
  'error.duplicateName': 'This username is already taken',
  'error.routeNotFound': 'No such API endpoint',
  'error.hasDependents': 'This user still has sub-users and cannot be deleted',
  'error.badRequest': 'Malformed request',
  'error.cannotDeleteSelf': 'You cannot delete the account you are logged in with',
  'error.cannotDeleteSuperUser': 'The super user cannot be deleted',
  'error.loggedInElsewhere':
    'The same account can only be logged in on one terminal at the same time. Your account has been logged out. Please log in again.',
  'error.sessionTimeout': 'The operation timed out, please log in again',
  'error.busy': 'The server is busy, please try again later',
  'error.exportTooFrequent': 'Do not export data frequently. Wait 10 seconds and try again',
  'error.kickedOut': 'The same account was logged in elsewhere and you have been logged out',
  'error.internal': 'Internal server error',
};

export const domainMessages: Record<Language, Record<DomainMessageKey, string>> = { zh, en };

/** Polyglot-style %{name} interpolation, enough for the server's messages. */
export function translateDomain(lang: Language, key: string, vars: Record<string, string | number> = {}): string {
  const table = domainMessages[lang] as Record<string, string>;
  const text = table[key] ?? key;
  return text.replace(/%\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? ''));
}
