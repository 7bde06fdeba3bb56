import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, idOf, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import { jpegOf } from './uploadFixtures';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6e1a20000000049454e44ae426082',
  'hex',
);
/** A real JPEG: uploads are decoded, not only sniffed. */
const JPEG = jpegOf(16, 16);

/** A multipart body with an optional fileType field and one file. */
function multipart(file: Buffer, filename: string, fileType?: string) {
  const boundary = '----fleetboundary';
  const parts: Buffer[] = [];
  if (fileType !== undefined)
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="fileType"\r\n\r\n${fileType}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${file[0] === 0xff ? 'image/jpeg' : 'image/png'}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(engines)('pictures and extra links on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer(engine);
  });
  afterAll(() => s.close());
  const u = (path: string) => `${s.base}/users/${path}`;
  const upload = (token: string, file: Buffer, fileType?: string, lang?: 'en') =>
    s.call({ method: 'POST', url: u('uploadFile'), token, lang, ...multipart(file, 'icon.png', fileType) });

  describe('pictures', () => {
    it("stores a sub-user's upload as its enterprise's picture, seen by the enterprise and not by another", async () => {
      const sub = await s.login('oceanops');
      const res = await upload(sub, PNG, '2');
      expect(res).toMatchObject({ code: 0, data: { fileType: 2, size: PNG.length } });
      const oceanic = await s.login('oceanic');
      const list = await s.call({ url: u('getPictureListByUid'), token: oceanic });
      expect(list.data).toEqual([
        { fileType: 2, ownerId: await idOf(s.db, 'oceanic'), content: `data:image/png;base64,${PNG.toString('base64')}` },
      ]);
      const polaris = await s.login('polaris');
      expect((await s.call({ url: u('getPictureListByUid'), token: polaris })).data).toEqual([]);
    });

    it("falls back to the admin's default picture for a type an enterprise has not uploaded", async () => {
      const admin = await s.login('admin');
      expect((await upload(admin, JPEG, '1')).code).toBe(0);
      const polaris = await s.login('polaris');
      const list = await s.call({ url: u('getPictureListByUid'), token: polaris });
      expect(list.data).toEqual([{ fileType: 1, ownerId: 0, content: expect.stringMatching(/^data:image\/jpeg;base64,/) }]);
    });

    it('replaces a picture of the same type and restores the default on delete', async () => {
      const polaris = await s.login('polaris');
      await upload(polaris, PNG, '1');
      await upload(polaris, PNG, '1');
      const mine = await s.call({ url: u('getPictureListByUid'), token: polaris });
      expect(mine.data.filter((p: { fileType: number }) => p.fileType === 1)).toHaveLength(1);
      expect(mine.data[0].ownerId).toBe(await idOf(s.db, 'polaris'));
      expect((await s.call({ method: 'DELETE', url: u('deleteOneByFileType?fileType=1'), token: polaris })).data).toEqual({
        deleted: true,
      });
      expect((await s.call({ url: u('getPictureListByUid'), token: polaris })).data[0].ownerId).toBe(0);
    });

    it('refuses a file that is not JPG or PNG by content, whatever its name', async () => {
      const polaris = await s.login('polaris');
      const res = await upload(polaris, Buffer.from('GIF89a not really'), '2', 'en');
      expect(res.code).toBe(ErrorCode.UploadRejected);
      expect(res.msg).toBe('Only JPG or PNG images can be uploaded');
    });

    it('refuses a picture over 2 MB and keeps the previous one', async () => {
      const polaris = await s.login('polaris');
      await upload(polaris, PNG, '3');
      const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
      const res = await upload(polaris, big, '3', 'en');
      expect(res.code).toBe(ErrorCode.UploadRejected);
      expect(res.msg).toBe('The image must not be larger than 2MB');
      const list = await s.call({ url: u('getPictureListByUid'), token: polaris });
      expect(list.data.find((p: { fileType: number }) => p.fileType === 3).content).toContain(PNG.toString('base64'));
    });

    it('refuses a file type outside 1-4 and a request without a file', async () => {
      const polaris = await s.login('polaris');
      expect((await upload(polaris, PNG, '5')).code).toBe(ErrorCode.Validation);
      const none = await s.call({ method: 'POST', url: u('uploadFile'), token: polaris, payload: { fileType: 1 } });
      expect(none.code).toBe(ErrorCode.UploadRejected);
      expect((await s.call({ method: 'DELETE', url: u('deleteOneByFileType?fileType=9'), token: polaris })).code).toBe(
        ErrorCode.Validation,
      );
    });
  });

  describe('extra links', () => {
    it('lets an admin set an enterprise link that the enterprise can read', async () => {
      const admin = await s.login('admin');
      const oceanicId = await idOf(s.db, 'oceanic');
      const set = await s.call({
        method: 'POST',
        url: u(`addEditUserExtraLink?userId=${oceanicId}&content=${encodeURIComponent('https://portal.example/oceanic')}`),
        token: admin,
      });
      expect(set.data).toMatchObject({ userId: oceanicId, userName: 'oceanic', content: 'https://portal.example/oceanic' });
      const oceanic = await s.login('oceanic');
      expect((await s.call({ url: u(`getUserExtraLink?userId=${oceanicId}`), token: oceanic })).data.content).toBe(
        'https://portal.example/oceanic',
      );
      expect((await s.call({ method: 'POST', url: u(`addEditUserExtraLink?userId=${oceanicId}&content=mine`), token: oceanic })).code).toBe(
        ErrorCode.Forbidden,
      );
    });

    it("lets an enterprise manage its sub-users' links but not another enterprise's", async () => {
      const oceanic = await s.login('oceanic');
      const opsId = await idOf(s.db, 'oceanops');
      expect((await s.call({ method: 'POST', url: u(`addEditUserExtraLink?userId=${opsId}&content=first`), token: oceanic })).code).toBe(0);
      expect(
        (await s.call({ method: 'POST', url: u(`addEditUserExtraLink?userId=${opsId}&content=second`), token: oceanic })).data.content,
      ).toBe('second');
      const all = await s.call({ url: u('getAllUserExtraLink'), token: oceanic });
      expect(all.data.map((l: { userName: string }) => l.userName).sort()).toEqual(['oceanic', 'oceanops']);
      const polaris = await s.login('polaris');
      expect((await s.call({ url: u(`getUserExtraLink?userId=${opsId}`), token: polaris })).code).toBe(ErrorCode.NotFound);
      expect((await s.call({ method: 'POST', url: u(`addEditUserExtraLink?userId=${opsId}&content=x`), token: polaris })).code).toBe(
        ErrorCode.NotFound,
      );
      expect((await s.call({ url: u('getAllUserExtraLink'), token: polaris })).data).toEqual([]);
    });

    it('answers null for a user without a link and refuses content over 2000 characters', async () => {
      const admin = await s.login('admin');
      const polarisId = await idOf(s.db, 'polaris');
      expect((await s.call({ url: u(`getUserExtraLink?userId=${polarisId}`), token: admin })).data).toBeNull();
      const long = await s.call({
        method: 'POST',
        url: u(`addEditUserExtraLink?userId=${polarisId}&content=${'x'.repeat(2001)}`),
        token: admin,
        lang: 'en',
      });
      expect(long.code).toBe(ErrorCode.Validation);
      expect(long.data).toEqual([{ field: 'content', message: 'Too long' }]);
    });
  });
});
