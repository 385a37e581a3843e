import type { PublicCapabilities } from '@shared/ai';
import { useQuery } from '@tanstack/react-query';

/** What this installation offers (AI writing needs a provider its operator connected). */
export function useCapabilities() {
  return useQuery<PublicCapabilities>({ queryKey: ['/api/public/capabilities'], staleTime: 300_000 });
}
