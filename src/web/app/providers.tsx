import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { DeferredToaster } from '@/components/deferred-toaster';
import { AuthProvider } from '@/hooks/use-auth';
import { CurrencyProvider } from '@/hooks/use-currency';
import { queryClient } from '@/lib/query-client';

/** Query cache, the signed-in user, the display currency and the toaster. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <CurrencyProvider>
          {children}
          <DeferredToaster />
        </CurrencyProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}

export { AuthProvider, useAuth } from '@/hooks/use-auth';
