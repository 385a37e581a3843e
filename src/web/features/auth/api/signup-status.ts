import type { SignupStatus } from '@shared/platform-settings';
import { useQuery } from '@tanstack/react-query';

/** Whether the platform takes new accounts (the operator can close sign-ups in Admin → Settings). */
export function useSignupStatus() {
  return useQuery<SignupStatus>({ queryKey: ['/api/public/signup-status'], staleTime: 60_000 });
}
