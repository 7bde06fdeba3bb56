import { beforeAll, describe, expect, it } from 'vitest';
import type { DeviceCommand } from '../../src/domain/commands';
import { loadMessages } from '../../src/i18n/messages';
import { translatorFor } from '../../src/i18n/I18nContext';
import { commandOutcome, commandParamsText, commandStateKey } from '../../src/domain/commandOutcome';

const command = (c: Partial<DeviceCommand>): DeviceCommand => ({
  id: 1,
  deviceId: 1,
  deviceName: 'Ocean Star',
  deviceNum: '10000001',
  kind: 'reboot',
  params: {},
  state: 'acknowledged',
  createdBy: 1,
  createdByName: 'oceanic',
  createdAt: '2026-11-26T10:00:00.000Z',
  sentAt: '2026-11-26T10:00:00.100Z',
  ackedAt: '2026-11-26T10:00:00.300Z',
  doneAt: null,
  deadline: '2026-11-26T10:10:00.000Z',
  message: null,
  result: null,
  ...c,
});
const RAW = /downForS|uptimeS|reason|[{}]|rebooting ·/;

/** What a command's result column says: a sentence in the reader's language, never the terminal's raw fields. */
describe('command results in words', () => {
  beforeAll(async () => {
    await Promise.all([loadMessages('zh'), loadMessages('en')]);
  });

  it('says a reboot is under way, then that the vessel is back, in zh and en', () => {
    const en = translatorFor('en');
    const zh = translatorFor('zh');
    const rebooting = command({ result: { downForS: 51 }, message: 'rebooting' });
    expect(commandOutcome(en, rebooting)).toBe('The vessel is rebooting, back in about 51 s');
    expect(commandOutcome(zh, rebooting)).toBe('船舶正在重启，约 51 秒后恢复');
    expect(en(commandStateKey(rebooting))).toBe('Rebooting');
    expect(zh(commandStateKey(rebooting))).toBe('重启中');
    const back = command({ ...rebooting, state: 'done', doneAt: '2026-11-26T10:00:47.300Z' });
    expect(commandOutcome(en, back)).toBe('Rebooted: back online after 47 s');
    expect(commandOutcome(zh, back)).toBe('重启完成：47 秒后恢复在线');
    expect(zh(commandStateKey(back))).toBe('已完成');
    const lost = command({ state: 'failed', result: { downForS: 51, reason: 'notBack' } });
    expect(commandOutcome(en, lost)).toBe('Not back online within 10 minutes of the reboot');
  });

  it('writes re-point, interval, diagnostics, firmware and refusals as sentences', () => {
    const en = translatorFor('en');
    const zh = translatorFor('zh');
    const repoint = command({
      kind: 'repoint',
      params: { satellite: 'Intelsat 39' },
      result: { satellite: 'Intelsat 39', azimuth: 201.5, elevation: 41.2 },
    });
    expect(commandOutcome(en, repoint)).toBe('Pointed at Intelsat 39 (azimuth 201.5°, elevation 41.2°)');
    expect(commandParamsText(zh, repoint)).toBe('卫星 Intelsat 39');
    const diagnostics = command({
      kind: 'diagnostics',
      result: {
        uptimeS: 11_520,
        satellite: 'Apstar 6',
        pointing: 'auto',
        azimuth: 150,
        elevation: 30.5,
        modemLock: true,
        faults: [],
        reportIntervalS: 10,
        temperatureC: 38.2,
        buffered: 0,
      },
    });
    expect(commandOutcome(en, diagnostics)).toBe(
      'Up 3 h 12 min · Apstar 6, pointed automatically, azimuth 150°, elevation 30.5° · modem locked · no faults · reports every 10 s · 38.2 °C',
    );
    expect(commandOutcome(zh, diagnostics)).toMatch(/^已运行 3 小时 12 分钟 · Apstar 6，自动对星/);
    expect(commandOutcome(zh, command({ kind: 'setInterval', params: { seconds: 30 }, result: { seconds: 30 } }))).toBe(
      '现在每 30 秒上报一次',
    );
    expect(commandOutcome(en, command({ kind: 'firmwareCheck', result: { adu: '2.4.1', bdu: '1.9.0' } }))).toBe(
      'ADU version 2.4.1, BDU version 1.9.0',
    );
    const below = command({
      kind: 'repoint',
      state: 'failed',
      message: 'Eutelsat 7C is below the horizon here (elevation -3.1°)',
      result: { reason: 'belowHorizon', satellite: 'Eutelsat 7C', elevation: -3.1 },
    });
    expect(commandOutcome(zh, below)).toBe('Eutelsat 7C 在船舶所在处低于地平线（仰角 -3.1°），无法对准');
    // A terminal's own words, when it names no reason the console knows, are shown as its answer.
    expect(commandOutcome(en, command({ kind: 'setInterval', state: 'failed', message: 'modem busy' }))).toBe(
      'The terminal answered: modem busy',
    );
    for (const t of [en, zh])
      for (const c of [command({ result: { downForS: 51 }, message: 'rebooting' }), diagnostics, repoint, below])
        expect(commandOutcome(t, c)).not.toMatch(RAW);
  });
});
