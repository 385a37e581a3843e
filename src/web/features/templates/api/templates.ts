import type { Template, TemplateInput, TemplateUpdate } from '@shared/templates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  adminTemplatesQueryKey,
  publicTemplatesQueryKey,
  templatesQueryKey,
} from '@/components/templates/template-queries';
import { apiRequest } from '@/lib/api';

export type AdminTemplateInput = TemplateInput & { published?: boolean };
export type AdminTemplateUpdate = TemplateUpdate & { published?: boolean };

function useInvalidateTemplates() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: templatesQueryKey }),
      queryClient.invalidateQueries({ queryKey: adminTemplatesQueryKey }),
      queryClient.invalidateQueries({ queryKey: publicTemplatesQueryKey }),
    ]);
}

const path = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

export function useSaveTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: async (input: TemplateInput): Promise<Template> =>
      (await apiRequest('POST', '/api/templates', input)).json(),
    onSuccess: invalidate,
  });
}

export function useUpdateTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: async ({ id, ...changes }: TemplateUpdate & { id: string }): Promise<Template> =>
      (await apiRequest('PATCH', path('/api/templates', id), changes)).json(),
    onSuccess: invalidate,
  });
}

export function useDeleteTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', path('/api/templates', id));
    },
    onSuccess: invalidate,
  });
}

export function useAdminCreateTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: async (input: AdminTemplateInput): Promise<Template> =>
      (await apiRequest('POST', '/api/admin/templates', input)).json(),
    onSuccess: invalidate,
  });
}

export function useAdminUpdateTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: async ({ id, ...changes }: AdminTemplateUpdate & { id: string }): Promise<Template> =>
      (await apiRequest('PATCH', path('/api/admin/templates', id), changes)).json(),
    onSuccess: invalidate,
  });
}

export function useAdminDeleteTemplate() {
  const invalidate = useInvalidateTemplates();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', path('/api/admin/templates', id));
    },
    onSuccess: invalidate,
  });
}
