import { AppError, errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import {
  contactLocationsSchema,
  contactLookupQuerySchema,
  contactSearchQuerySchema,
  contactSearchResultSchema,
  eraseContactSchema,
  eraseResultSchema,
  freezeListSchema,
  userListPageSchema,
  userListQuerySchema,
} from '@shared/admin-data';
import { messageSchema } from '@shared/auth';
import {
  dataEntryAssignmentSchema,
  officerListQuerySchema,
  officerListSchema,
  officerQualitySchema,
  reviewInputSchema,
  sampleQuerySchema,
  sampleSchema,
  updateAssignmentSchema,
} from '@shared/data-entry';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditActor } from '../admin/audit.service';
import { eraseContactEverywhere, lookupContact, searchContacts } from './contacts-erasure.service';
import {
  listOfficers,
  reviewOfficerRecord,
  sampleOfficerRecords,
  updateOfficerAssignment,
} from './data-entry-management.service';
import { freezeList, listUserLists, unfreezeList } from './user-lists.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

/** The admin data screens: Contacts, User Lists and Data Entry Management (super admins only). */
export async function adminDataRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['admin'];
  const errors = errorResponses(400, 401, 403, 404, 409);
  const idParams = z.object({ id: z.uuid() });
  const officerParams = z.object({ id: z.string().min(1).max(100) });

  // --- Contacts -------------------------------------------------------------------------------------
  app.get(
    '/api/admin/contacts/search',
    {
      schema: {
        tags,
        querystring: contactSearchQuerySchema,
        response: { 200: contactSearchResultSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return searchContacts({ db, ...request.query });
    },
  );

  app.get(
    '/api/admin/contacts/lookup',
    {
      schema: {
        tags,
        querystring: contactLookupQuerySchema,
        response: { 200: contactLocationsSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return lookupContact({ db, email: request.query.email });
    },
  );

  app.post(
    '/api/admin/contacts/erase',
    { schema: { tags, body: eraseContactSchema, response: { 200: eraseResultSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      if (request.body.confirm !== request.body.email) {
        throw new AppError('validation', 'Type the address again exactly to confirm the erasure.', {
          errors: [{ path: 'confirm', message: 'Does not match the address' }],
        });
      }
      return eraseContactEverywhere({ db, actor, email: request.body.email });
    },
  );

  // --- User Lists -----------------------------------------------------------------------------------
  app.get(
    '/api/admin/user-lists',
    { schema: { tags, querystring: userListQuerySchema, response: { 200: userListPageSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return listUserLists({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/user-lists/:id/freeze',
    {
      schema: { tags, params: idParams, body: freezeListSchema, response: { 200: messageSchema, ...errors } },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const list = await freezeList({ db, actor, id: request.params.id, reason: request.body.reason });
      return { message: `"${list.name}" is frozen: it cannot be sent to or imported into.` };
    },
  );

  app.post(
    '/api/admin/user-lists/:id/unfreeze',
    { schema: { tags, params: idParams, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const list = await unfreezeList({ db, actor, id: request.params.id });
      return { message: `"${list.name}" can be used again.` };
    },
  );

  // --- Data Entry Management ------------------------------------------------------------------------
  app.get(
    '/api/admin/data-entry/officers',
    {
      schema: { tags, querystring: officerListQuerySchema, response: { 200: officerListSchema, ...errors } },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listOfficers({ db, ...request.query });
    },
  );

  app.put(
    '/api/admin/data-entry/officers/:id/assignment',
    {
      schema: {
        tags,
        params: officerParams,
        body: updateAssignmentSchema,
        response: { 200: dataEntryAssignmentSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return updateOfficerAssignment({ db, actor, officerId: request.params.id, input: request.body });
    },
  );

  app.get(
    '/api/admin/data-entry/officers/:id/sample',
    {
      schema: {
        tags,
        params: officerParams,
        querystring: sampleQuerySchema,
        response: { 200: sampleSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return sampleOfficerRecords({ db, officerId: request.params.id, size: request.query.size });
    },
  );

  app.post(
    '/api/admin/data-entry/officers/:id/reviews',
    {
      schema: {
        tags,
        params: officerParams,
        body: reviewInputSchema,
        response: { 200: officerQualitySchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return reviewOfficerRecord({ db, actor, officerId: request.params.id, input: request.body });
    },
  );
}
