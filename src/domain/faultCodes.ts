import { DEGRADE_ALARM_CODE, degradeWords } from './degradeDetail';
/**
 * The device fault codes of docs/requirements.md §8, each with its severity, the unit it concerns and a
 * meaning and remedy text in both languages (kept here, in one place, as { zh, en }).
 */
export const FaultSeverity = { Critical: 'critical', Major: 'major', Minor: 'minor' } as const;
export type FaultSeverity = (typeof FaultSeverity)[keyof typeof FaultSeverity];
export const FAULT_SEVERITIES: readonly FaultSeverity[] = Object.values(FaultSeverity);

export const FaultUnit = {
  Antenna: 'antenna',
  Bdu: 'bdu',
  Motor: 'motor',
  Sensor: 'sensor',
  DataPlan: 'dataPlan',
  Link: 'link',
  Command: 'command',
  Firmware: 'firmware',
  Position: 'position',
} as const;
export type FaultUnit = (typeof FaultUnit)[keyof typeof FaultUnit];

export interface Bilingual {
  zh: string;
  en: string;
}

export interface FaultCodeInfo {
  code: string;
  severity: FaultSeverity;
  unit: FaultUnit;
  meaning: Bilingual;
  remedy: Bilingual;
}

const SERVICE = { zh: '如仍未恢复，请联系售后服务。', en: 'If it persists, contact after-sales service.' };
const fault = (code: string, severity: FaultSeverity, unit: FaultUnit, meaning: Bilingual, remedy: Bilingual): FaultCodeInfo => ({
  code,
  severity,
  unit,
  meaning,
  remedy: { zh: `${remedy.zh}${SERVICE.zh}`, en: `${remedy.en} ${SERVICE.en}` },
});

export const FAULT_CODES: readonly FaultCodeInfo[] = [
  fault(
    'E01',
    'critical',
    'antenna',
    { zh: '天线主板初始化失败', en: 'Antenna mainboard initialisation failed' },
    { zh: '断电重启天线（ADU）并检查主板供电与连接线。', en: 'Power-cycle the antenna (ADU) and check the mainboard supply and cables.' },
  ),
  fault(
    'E02',
    'critical',
    'antenna',
    { zh: '天线电源检测失败', en: 'Antenna power detection failed' },
    {
      zh: '检查BDU到天线的电源输出、射频电缆与接头。',
      en: 'Check the power output from the BDU to the antenna, the RF cable and its connectors.',
    },
  ),
  fault(
    'E03',
    'major',
    'motor',
    { zh: '极化（Skew）电机检测失败', en: 'Skew motor detection failed' },
    {
      zh: '检查极化电机连线与限位开关，手动转动确认无卡阻。',
      en: 'Check the skew motor wiring and limit switch; turn it by hand to make sure it moves freely.',
    },
  ),
  fault(
    'E04',
    'major',
    'bdu',
    { zh: '调谐器检测失败', en: 'Tuner detection failed' },
    { zh: '重启BDU，检查调谐器与中频电缆。', en: 'Restart the BDU and check the tuner and the IF cable.' },
  ),
  fault(
    'E05',
    'major',
    'antenna',
    { zh: 'LNB检测失败', en: 'LNB detection failed' },
    {
      zh: '检查LNB供电与接头是否进水或松动，必要时更换LNB。',
      en: 'Check the LNB supply and that its connector is dry and tight; replace the LNB if needed.',
    },
  ),
  fault(
    'E06',
    'major',
    'sensor',
    { zh: '陀螺仪传感器检测失败', en: 'Gyro sensor detection failed' },
    { zh: '重启天线，检查陀螺仪传感器连线与安装是否牢固。', en: 'Restart the antenna and check the gyro sensor wiring and mounting.' },
  ),
  fault(
    'E07',
    'major',
    'motor',
    { zh: '俯仰电机检测失败', en: 'Elevation motor detection failed' },
    { zh: '检查俯仰电机连线、皮带与限位开关。', en: 'Check the elevation motor wiring, belt and limit switch.' },
  ),
  fault(
    'E08',
    'major',
    'motor',
    { zh: '方位电机检测失败', en: 'Azimuth motor detection failed' },
    { zh: '检查方位电机连线、皮带与原点传感器。', en: 'Check the azimuth motor wiring, belt and home sensor.' },
  ),
  fault(
    'E11',
    'minor',
    'bdu',
    { zh: '信标电路故障', en: 'Beacon circuit failure' },
    { zh: '核对卫星参数与信标频率，重启BDU。', en: 'Check the satellite parameters and beacon frequency, then restart the BDU.' },
  ),
  fault(
    'E12',
    'major',
    'motor',
    { zh: '横滚（Cross-level）电机故障', en: 'Cross-level motor failure' },
    { zh: '检查横滚电机连线与机械结构是否卡阻。', en: 'Check the cross-level motor wiring and that the mechanism moves freely.' },
  ),
  {
    code: 'E90',
    severity: 'critical',
    unit: 'bdu',
    meaning: { zh: '主板固件损坏', en: 'Mainboard firmware damaged' },
    remedy: { zh: '请联系厂家处理（固件需由厂家恢复）。', en: 'Contact the manufacturer: the firmware has to be restored by them.' },
  },
];

/**
 * The kinds of alarm: a device fault (the codes above, reported by the terminal) and a data plan
 * alarm (raised by the server when a vessel's usage crosses a share of its plan).
 * Both live in the alarms table and go through the same list, bell, acknowledge and clear.
 */
export const AlarmKind = { Device: 'device', DataPlan: 'dataPlan' } as const;
export type AlarmKind = (typeof AlarmKind)[keyof typeof AlarmKind];

export interface DataPlanAlarmInfo extends FaultCodeInfo {
  kind: typeof AlarmKind.DataPlan;
  /** Raised when the period's usage reaches this share of the quota (percent). */
  percent: number;
}

/** Data plan alarms, lowest share first; a device never reports them (isFaultCode refuses them). */
export const DATA_PLAN_ALARMS: readonly DataPlanAlarmInfo[] = [
  {
    code: 'DATA80',
    kind: 'dataPlan',
    percent: 80,
    severity: 'minor',
    unit: 'dataPlan',
    meaning: { zh: '本期流量已用 80% 以上', en: 'Over 80 % of the data plan used this period' },
    remedy: {
      zh: '控制船上非必要的数据使用，或提高套餐额度；本提醒在新周期开始或套餐修改时解除。',
      en: 'Limit non-essential data use on board or raise the plan quota; it clears when a new period starts or the plan changes.',
    },
  },
  {
    code: 'DATA100',
    kind: 'dataPlan',
    percent: 100,
    severity: 'major',
    unit: 'dataPlan',
    meaning: { zh: '本期流量已用尽（超出套餐额度）', en: 'Data plan used up (over the quota) this period' },
    remedy: {
      zh: '超出部分可能另行计费或限速：提高套餐额度，或等待新周期开始。',
      en: 'Usage over the quota may be billed extra or throttled: raise the quota or wait for the next period.',
    },
  },
];
export const DATA_PLAN_ALARM_CODES: readonly string[] = DATA_PLAN_ALARMS.map((a) => a.code);

/**
 * The alarm an alarm rule raises for a vessel silent longer than the rule allows (its
 * offlineMinutes; docs/api.md, "Notifications"). Cleared by the vessel's next report.
 */
export const OFFLINE_ALARM: FaultCodeInfo = {
  code: 'OFFLINE',
  severity: 'major',
  unit: 'bdu',
  meaning: { zh: '船舶离线时间超过告警规则的设定', en: 'Vessel silent longer than an alarm rule allows' },
  remedy: {
    zh: '检查船上供电与卫星链路；船舶再次上报后告警自动恢复。',
    en: "Check the vessel's power and satellite link; the alarm clears with its next report.",
  },
};

/**
 * The other alarms alarm rules raise (docs/api.md, "Notifications"), each with the severity of the
 * rule that raised it (these are defaults) and a detail: weak signal or SNR for the rule's minutes
 * (cleared when the figures recover), a command that failed or expired (cleared by the vessel's
 * next acknowledged command), a firmware update that failed (cleared by a successful one), a vessel
 * inside a geofence a rule watches for entries, or outside one it watches for departures.
 */
// prettier-ignore
const ruleAlarm = (code: string, severity: FaultSeverity, unit: FaultUnit, meaning: Bilingual, remedy: Bilingual): FaultCodeInfo => ({ code, severity, unit, meaning, remedy });
export const RULE_ALARMS: readonly FaultCodeInfo[] = [
  ruleAlarm(
    'SIGNAL_LOW',
    'major',
    'link',
    { zh: '信号或信噪比持续偏低', en: 'Signal or SNR low for longer than a rule allows' },
    {
      zh: '检查天线是否被遮挡、卫星参数与天气；信号恢复后告警自动解除。',
      en: 'Check for obstructions, the satellite parameters and the weather; the alarm clears when the signal recovers.',
    },
  ),
  ruleAlarm(
    'CMD_FAILED',
    'minor',
    'command',
    { zh: '远程指令失败或超时', en: 'A remote command failed or expired' },
    {
      zh: '查看指令结果后重新发送；船舶下一条指令执行成功后告警自动解除。',
      en: "Read the command's result and send it again; the alarm clears when the vessel's next command succeeds.",
    },
  ),
  ruleAlarm(
    'FW_FAILED',
    'major',
    'firmware',
    { zh: '固件升级失败', en: 'Firmware update failed' },
    {
      zh: '查看升级任务的失败原因后重试；升级成功后告警自动解除。',
      en: 'Read why the rollout failed and try again; the alarm clears when an update succeeds.',
    },
  ),
  ruleAlarm(
    'GEOFENCE_IN',
    'minor',
    'position',
    { zh: '船舶进入电子围栏', en: 'Vessel entered a geofence' },
    { zh: '船舶离开该区域后告警自动解除。', en: 'The alarm clears when the vessel leaves the area.' },
  ),
  ruleAlarm(
    'GEOFENCE_OUT',
    'major',
    'position',
    { zh: '船舶离开电子围栏', en: 'Vessel left a geofence' },
    { zh: '船舶返回该区域后告警自动解除。', en: 'The alarm clears when the vessel is back in the area.' },
  ),
];
export const RULE_ALARM_CODES: readonly string[] = RULE_ALARMS.map((a) => a.code);
/** The leader's warning of a poor zone ahead (src/domain/degradeAhead.ts, degradeDetail.ts): no rule needed; rules pick it up by code and severity. */
export const DEGRADE_ALARM: FaultCodeInfo = ruleAlarm(
  DEGRADE_ALARM_CODE,
  'minor',
  'link',
  { zh: '前方链路预计变差', en: 'Link expected to degrade ahead' },
  {
    zh: '在进入该区域前改指建议的卫星，或切换到备用链路；船舶驶离该航线或通过该区域后告警自动解除。',
    en: 'Before the zone, re-point to the suggested satellite or switch to the backup link; the warning clears when the vessel leaves the path or has passed the zone.',
  },
);
/** Codes an alarm rule raises only when it names them (the others follow from the rule's settings). */
export const NAMED_RULE_ALARM_CODES: readonly string[] = ['CMD_FAILED', 'FW_FAILED'];

/** Alarm codes that are no device's fault: a report neither refreshes nor clears them. */
export const SERVER_ALARM_CODES: readonly string[] = [
  ...DATA_PLAN_ALARM_CODES,
  OFFLINE_ALARM.code,
  ...RULE_ALARM_CODES,
  DEGRADE_ALARM.code,
];

export const FAULT_CODE_LIST: readonly string[] = FAULT_CODES.map((f) => f.code);
/** Every code an alarm may carry (the alarm list's code filter). */
export const ALARM_CODE_LIST: readonly string[] = [...FAULT_CODE_LIST, ...SERVER_ALARM_CODES];
const DEVICE_CODES = new Set(FAULT_CODE_LIST);
const BY_CODE = new Map<string, FaultCodeInfo>(
  [...FAULT_CODES, ...DATA_PLAN_ALARMS, OFFLINE_ALARM, ...RULE_ALARMS, DEGRADE_ALARM].map((f) => [f.code, f]),
);
/** Meaning, remedy and severity of any alarm code (device fault or data plan). */
export const faultInfo = (code: string): FaultCodeInfo | undefined => BY_CODE.get(code);
/** A device fault code (what a report may carry); data plan codes are not. */
export const isFaultCode = (value: unknown): value is string => typeof value === 'string' && DEVICE_CODES.has(value);
export const alarmKindOf = (code: string): AlarmKind => (DATA_PLAN_ALARM_CODES.includes(code) ? AlarmKind.DataPlan : AlarmKind.Device);

const COMMAND_NAMES: Record<string, Bilingual> = {
  reboot: { zh: '重启', en: 'reboot' },
  repoint: { zh: '重新对星', en: 're-point' },
  setInterval: { zh: '设置上报间隔', en: 'set report interval' },
  diagnostics: { zh: '诊断', en: 'diagnostics' },
  firmwareCheck: { zh: '检查固件', en: 'firmware check' },
};

/** An alarm's meaning in a language, with what it is about when the alarm says (its detail: a geofence's name, a command's kind, a firmware version, the weak figures, the zone ahead in words). */
export function alarmMeaning(code: string, detail: string | null | undefined, lang: keyof Bilingual): string {
  const meaning = faultInfo(code)?.meaning[lang] ?? code;
  if (!detail) return meaning;
  const words = code === DEGRADE_ALARM_CODE ? degradeWords(detail, lang) : null;
  const what = words ?? (COMMAND_NAMES[detail] && code === 'CMD_FAILED' ? COMMAND_NAMES[detail]![lang] : detail);
  return lang === 'zh' ? `${meaning}：${what}` : `${meaning}: ${what}`;
}
