import type { Bilingual } from './faultCodes';

/**
 * The guided troubleshooting steps for each fault code of docs/requirements.md §8 (faultCodes.ts holds
 * the meaning, unit, severity and a one-line remedy). E90 has one step: contact the manufacturer.
 */
const s = (zh: string, en: string): Bilingual => ({ zh, en });
const FINAL = s(
  '如按以上步骤仍未恢复，请从此故障发起售后报告。',
  'If the fault persists after these steps, start an after-sales report from this fault.',
);

export const FAULT_STEPS: Readonly<Record<string, readonly Bilingual[]>> = {
  E01: [
    s(
      '在BDU上关闭天线（ADU）电源，等待30秒后重新上电。',
      'Switch the antenna (ADU) off at the BDU, wait 30 seconds and switch it on again.',
    ),
    s(
      '检查BDU到天线的电源与数据电缆，重新插紧两端接头。',
      'Check the power and data cable from the BDU to the antenna and reseat both connectors.',
    ),
    s('观察天线启动过程，确认主板指示灯正常。', 'Watch the antenna start up and make sure the mainboard LEDs look normal.'),
    FINAL,
  ],
  E02: [
    s(
      '在BDU上测量天线电源输出电压是否在规格范围内。',
      'Measure the antenna supply voltage at the BDU and compare it with the specification.',
    ),
    s('检查射频电缆与接头有无损伤、进水或松动。', 'Check the RF cable and connectors for damage, water or looseness.'),
    s('更换一根已知完好的电缆再试。', 'Try again with a cable known to be good.'),
    FINAL,
  ],
  E03: [
    s('断电后检查极化电机连线与限位开关。', 'With the power off, check the skew motor wiring and limit switch.'),
    s('手动转动极化机构，确认无卡阻。', 'Turn the skew mechanism by hand and make sure it moves freely.'),
    s('重新上电，观察极化电机自检。', 'Power up again and watch the skew motor self-test.'),
    FINAL,
  ],
  E04: [s('重启BDU。', 'Restart the BDU.'), s('检查调谐器与中频（IF）电缆连接。', 'Check the tuner and the IF cable connections.'), FINAL],
  E05: [
    s('检查LNB供电电压。', 'Check the LNB supply voltage.'),
    s('检查LNB接头是否干燥、拧紧。', 'Make sure the LNB connector is dry and tight.'),
    s('必要时更换LNB。', 'Replace the LNB if needed.'),
    FINAL,
  ],
  E06: [
    s('重启天线。', 'Restart the antenna.'),
    s('检查陀螺仪传感器连线与安装是否牢固。', 'Check the gyro sensor wiring and that it is firmly mounted.'),
    FINAL,
  ],
  E07: [
    s('断电后检查俯仰电机连线与皮带张紧。', 'With the power off, check the elevation motor wiring and belt tension.'),
    s('检查俯仰限位开关。', 'Check the elevation limit switch.'),
    s('重新上电，观察俯仰自检。', 'Power up again and watch the elevation self-test.'),
    FINAL,
  ],
  E08: [
    s('断电后检查方位电机连线与皮带。', 'With the power off, check the azimuth motor wiring and belt.'),
    s('检查方位原点传感器。', 'Check the azimuth home sensor.'),
    s('重新上电，观察方位自检。', 'Power up again and watch the azimuth self-test.'),
    FINAL,
  ],
  E11: [
    s('核对卫星参数与信标频率设置。', 'Check the satellite parameters and the beacon frequency setting.'),
    s('重启BDU。', 'Restart the BDU.'),
    FINAL,
  ],
  E12: [
    s('断电后检查横滚电机连线。', 'With the power off, check the cross-level motor wiring.'),
    s('手动转动横滚机构，确认无卡阻。', 'Move the cross-level mechanism by hand and make sure it moves freely.'),
    FINAL,
  ],
  E90: [
    s(
      '主板固件已损坏，现场无法修复：请联系厂家。请勿反复断电重启或自行刷写固件。',
      'The mainboard firmware is damaged and cannot be repaired on board: contact the manufacturer. Do not keep power-cycling or flash the firmware yourself.',
    ),
  ],
};

/** Only E90 must go to the manufacturer. */
export const CONTACT_MANUFACTURER_CODES: readonly string[] = ['E90'];
export const stepsOf = (code: string): readonly Bilingual[] => FAULT_STEPS[code] ?? [];
/**
 * The step that says to start an after-sales report (0-based), or null: the console offers the
 * report there to those who may raise one, and the others are told to contact their service provider.
 */
export const reportStepOf = (code: string): number | null => {
  const i = stepsOf(code).indexOf(FINAL);
  return i < 0 ? null : i;
};
