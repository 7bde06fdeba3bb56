import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { IMAGE_MAX_BYTES } from '../../../src/domain/constants';
import { enterpriseIdOf } from '../../../src/domain/levels';
import { isFileType } from '../../../src/domain/pictures';
import { BizError, ok } from '../../http/envelope';
import { envelope, tokenQuery } from '../../http/schemas';
import { checkImage } from '../../http/imageCheck';
import { rethrowMultipart } from '../../http/multipartErrors';
import { deletePicture, picturesOf, savePicture } from './pictureQueries';

const tags = ['pictures'];

/**
 * The enterprise's logo and antenna icons (fileType 1-4). The owner is the enterprise by the rule
 * of docs/requirements.md §4: the caller's own id for level 2, its parent for level 3, 0 (the defaults
 * every enterprise falls back to) for admins.
 */
export async function pictureRoutes(app: Api, { db }: ServerContext) {
  app.post(
    '/uploadFile',
    {
      schema: {
        tags,
        summary:
          'Upload one picture (multipart: fileType, file). JPG or PNG by content (decoded header, 1-8000 px a side, nothing after the image), at most 2 MB; replaces the previous one of that type',
        consumes: ['multipart/form-data'],
        querystring: { type: 'object', properties: { ...tokenQuery, fileType: { type: 'integer', minimum: 1, maximum: 4 } } },
        response: envelope({ type: 'object', properties: { fileType: { type: 'integer' }, size: { type: 'integer' } } }),
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new BizError(ErrorCode.UploadRejected, 'error.uploadMissing');
      const part = await request.file({ limits: { fileSize: IMAGE_MAX_BYTES, files: 1 } }).catch(rethrowMultipart);
      if (!part) throw new BizError(ErrorCode.UploadRejected, 'error.uploadMissing');
      const content = await part.toBuffer().catch(rethrowMultipart);
      const field = part.fields.fileType as { value?: unknown } | undefined;
      const fileType = Number(request.query.fileType ?? field?.value);
      if (!isFileType(fileType))
        throw new BizError(ErrorCode.Validation, 'error.fileType', [{ field: 'fileType', message: 'error.fileType' }]);
      // JPG or PNG by content, decoded header, sane dimensions, nothing after the image (imageCheck.ts).
      const image = checkImage(content, part.mimetype);
      await savePicture(db, enterpriseIdOf(request.user), fileType, image.mime, content);
      return ok({ fileType, size: content.length });
    },
  );

  app.get(
    '/getPictureListByUid',
    {
      schema: {
        tags,
        summary: "The caller's enterprise pictures as data URLs; a type it has not uploaded comes from the defaults (ownerId 0)",
        querystring: { type: 'object', properties: tokenQuery },
        response: envelope({
          type: 'array',
          items: {
            type: 'object',
            properties: { fileType: { type: 'integer' }, content: { type: 'string' }, ownerId: { type: 'integer' } },
          },
        }),
      },
    },
    async (request) => {
      const rows = await picturesOf(db, enterpriseIdOf(request.user));
      return ok(
        rows.map((r) => ({
          fileType: r.fileType,
          ownerId: r.ownerId,
          content: `data:${r.mime};base64,${Buffer.from(r.content).toString('base64')}`,
        })),
      );
    },
  );

  app.delete(
    '/deleteOneByFileType',
    {
      schema: {
        tags,
        summary: "Restore the default picture of one type for the caller's enterprise",
        querystring: {
          type: 'object',
          required: ['fileType'],
          properties: { ...tokenQuery, fileType: { type: 'integer', minimum: 1, maximum: 4 } },
        },
        response: envelope({ type: 'object', properties: { deleted: { type: 'boolean' } } }),
      },
    },
    async (request) => {
      const { fileType } = request.query;
      return ok({ deleted: await deletePicture(db, enterpriseIdOf(request.user), fileType) });
    },
  );
}
