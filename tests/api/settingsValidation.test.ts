import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import * as yup from 'yup';
import { ErrorCode } from '../../src/domain/errorCodes';
import { parseWith } from '../../server/http/validation';
import type { BizError } from '../../server/http/envelope';

/** Bad input answers bounded, translated field messages, never the input itself (docs/api.md, supportModule settings). */
describe.each(engines)('console settings validation on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  const lines: string[] = [];
  beforeAll(async () => {
    s = await createTestServer(engine, { logLevel: 'warn' }, { logStream: { write: (line: string) => void lines.push(line) } });
    admin = await s.login('admin');
  });
  afterAll(() => s.close());

  const update = (body: unknown, lang: 'zh' | 'en') =>
    s.app.inject({
      method: 'POST',
      url: `${s.base}/supportModule/settings/update?token=${admin}&lang=${lang}`,
      payload: body as object,
    });

  it('answers a huge array for defaultSize with one short translated message, and logs one short line', async () => {
    const huge = { defaultSize: Array.from({ length: 8000 }, (_, i) => `x${i}`) };
    const sent = JSON.stringify(huge).length;
    expect(sent).toBeGreaterThan(40_000);
    lines.length = 0;
    for (const [lang, message] of [
      ['zh', '尺寸只能是 mini、small 或 medium'],
      ['en', 'The size must be mini, small or medium'],
    ] as const) {
      const res = await update(huge, lang);
      expect(res.body.length).toBeLessThan(300);
      expect(res.json()).toMatchObject({ code: ErrorCode.Validation, data: [{ field: 'defaultSize', message }] });
    }
    const refused = lines.filter((line) => line.includes('input refused'));
    expect(refused).toHaveLength(2);
    for (const line of refused) expect(line.length).toBeLessThan(1000);
    expect(lines.join('').length).toBeLessThan(4000);
  });
});

describe('parseWith', () => {
  it('turns a rule without a message of ours (yup\'s text, which quotes the value) into "invalid value", and cuts long field paths', () => {
    const schema = yup.object({ note: yup.string().optional(), [`k${'z'.repeat(500)}`]: yup.number().optional() });
    const refusal = (() => {
      try {
        parseWith(schema, { note: ['y'.repeat(50_000)], [`k${'z'.repeat(500)}`]: 'not a number' });
      } catch (error) {
        return error as BizError;
      }
      throw new Error('accepted');
    })();
    expect(refusal.code).toBe(ErrorCode.Validation);
    expect(refusal.data).toEqual([
      { field: 'note', message: 'validation.invalid' },
      { field: `k${'z'.repeat(99)}`, message: 'validation.invalid' },
    ]);
  });
});
