import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import { messageSchema } from '@shared/auth';
import { uuidParamsSchema } from '@shared/contacts';
import {
  contactListSchema,
  contactListsSchema,
  createListContactSchema,
  createListSchema,
  listContactParamsSchema,
  listContactSchema,
  listContactsPageSchema,
  listContactsQuerySchema,
  recycleBinSchema,
  removedSchema,
  removeListContactsSchema,
  updateListContactSchema,
  updateListSchema,
} from '@shared/lists';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { exportListCsv } from './list-export';
import {
  addListContact,
  createList,
  deleteList,
  getListById,
  listListContacts,
  listLists,
  listRecycleBin,
  purgeList,
  removeListContacts,
  restoreList,
  updateList,
  updateListContact,
} from './lists.service';

export async function listsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['lists'];
  const errors = errorResponses(400, 401, 403, 404, 409);
  const params = uuidParamsSchema;

  app.get(
    '/api/lists',
    { schema: { tags, response: { 200: contactListsSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return { lists: await listLists({ db, userId: user.id }) };
    },
  );

  app.post(
    '/api/lists',
    { schema: { tags, body: createListSchema, response: { 201: contactListSchema, ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      reply.code(201);
      return createList({ db, userId: user.id, ...request.body });
    },
  );

  // Registered before /api/lists/:id so "recycle-bin" is never read as an id.
  app.get(
    '/api/lists/recycle-bin',
    { schema: { tags, response: { 200: recycleBinSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return { lists: await listRecycleBin({ db, userId: user.id }) };
    },
  );

  app.get(
    '/api/lists/:id',
    { schema: { tags, params, response: { 200: contactListSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getListById({ db, userId: user.id, id: request.params.id });
    },
  );

  app.patch(
    '/api/lists/:id',
    { schema: { tags, params, body: updateListSchema, response: { 200: contactListSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return updateList({ db, userId: user.id, id: request.params.id, changes: request.body });
    },
  );

  app.delete(
    '/api/lists/:id',
    { schema: { tags, params, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      await deleteList({ db, userId: user.id, id: request.params.id });
      return { message: 'The list was moved to the recycle bin. You can restore it within 30 days.' };
    },
  );

  app.post(
    '/api/lists/:id/restore',
    { schema: { tags, params, response: { 200: contactListSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return restoreList({ db, actor: user, id: request.params.id });
    },
  );

  app.delete(
    '/api/lists/:id/permanent',
    { schema: { tags, params, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      await purgeList({ db, userId: user.id, id: request.params.id });
      return { message: 'The list and its contacts were deleted for good.' };
    },
  );

  app.get(
    '/api/lists/:id/contacts',
    {
      schema: {
        tags,
        params,
        querystring: listContactsQuerySchema,
        response: { 200: listContactsPageSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listListContacts({ db, userId: user.id, listId: request.params.id, ...request.query });
    },
  );

  app.post(
    '/api/lists/:id/contacts',
    {
      schema: {
        tags,
        params,
        body: createListContactSchema,
        response: { 201: listContactSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      reply.code(201);
      return addListContact({ db, actor: user, listId: request.params.id, fields: request.body });
    },
  );

  app.patch(
    '/api/lists/:id/contacts/:contactId',
    {
      schema: {
        tags,
        params: listContactParamsSchema,
        body: updateListContactSchema,
        response: { 200: listContactSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return updateListContact({
        db,
        userId: user.id,
        listId: request.params.id,
        contactId: request.params.contactId,
        fields: request.body,
      });
    },
  );

  app.delete(
    '/api/lists/:id/contacts',
    { schema: { tags, params, body: removeListContactsSchema, response: { 200: removedSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      const removed = await removeListContacts({
        db,
        userId: user.id,
        listId: request.params.id,
        ...request.body,
      });
      return { removed };
    },
  );

  app.get(
    '/api/lists/:id/export.csv',
    {
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      // No response schema: the body is a CSV stream (errors still use the usual JSON shape).
      schema: { tags, params },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const { fileName, stream } = await exportListCsv({ db, userId: user.id, listId: request.params.id });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
}
