import type { LoginInput, LoginResponse, RegisterInput, User } from '@shared/auth';
import { type UseMutationResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect } from 'react';

import { toast } from '@/hooks/use-toast';
import { ApiRequestError, apiRequest, getQueryFn } from '@/lib/api';
import { getErrorMessage } from '@/lib/errors';
import { USER_QUERY_KEY, USER_STALE_TIME } from '@/lib/query-client';
import { describeRegistrationError } from '@/lib/registration-error';

/** Fired on window when registration finds an existing account; the auth screen switches to sign in. */
export const SWITCH_TO_LOGIN_EVENT = 'tambari:switch-to-login';
export interface SwitchToLoginDetail {
  email?: string;
  firstName?: string;
  message: string;
}

// Logout goes to /auth and reloads the page, so its success toast is carried across the reload in session storage.
const SIGNED_OUT_FLAG = 'tambari:signed-out';

interface AuthContextValue {
  user: User | null;
  isLoading: boolean;
  error: Error | null;
  loginMutation: UseMutationResult<LoginResponse, Error, LoginInput>;
  registerMutation: UseMutationResult<User, Error, RegisterInput>;
  logoutMutation: UseMutationResult<void, Error, void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** Keeps only the User fields in the cache; `subscriptionInfo` belongs to the login answer alone. */
function toUser(response: LoginResponse | User): User {
  const { subscriptionInfo: _ignored, ...user } = response as LoginResponse;
  return user;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();

  // GET /api/user, null when signed out (a 401 is silent), cached 5 minutes, no retry.
  const userQuery = useQuery<User | null, Error>({
    queryKey: USER_QUERY_KEY,
    queryFn: getQueryFn<User | null>({ on401: 'returnNull' }),
    staleTime: USER_STALE_TIME,
    retry: false,
  });

  useEffect(() => {
    if (sessionStorage.getItem(SIGNED_OUT_FLAG)) {
      sessionStorage.removeItem(SIGNED_OUT_FLAG);
      toast({ title: 'Signed out', description: 'You have been successfully signed out.' });
    }
  }, []);

  const loginMutation = useMutation<LoginResponse, Error, LoginInput>({
    mutationFn: async (credentials) => {
      const res = await apiRequest('POST', '/api/login', credentials);
      return (await res.json()) as LoginResponse;
    },
    onSuccess: (response) => {
      queryClient.setQueryData(USER_QUERY_KEY, toUser(response));
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
    onError: (error) => {
      toast({
        title: 'Login failed',
        description: getErrorMessage(error, 'Invalid email or password. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  const registerMutation = useMutation<User, Error, RegisterInput>({
    mutationFn: async (input) => {
      const res = await apiRequest('POST', '/api/register', input);
      return toUser((await res.json()) as User);
    },
    onSuccess: (user) => {
      queryClient.setQueryData(USER_QUERY_KEY, user);
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
    onError: (error, input) => {
      const outcome = describeRegistrationError(error, input.email);
      toast({
        title: outcome.title,
        description: outcome.description,
        variant: outcome.switchToLogin ? 'default' : 'destructive',
      });
      if (outcome.switchToLogin) {
        const { email, firstName, message } = outcome.switchToLogin;
        window.dispatchEvent(
          new CustomEvent<SwitchToLoginDetail>(SWITCH_TO_LOGIN_EVENT, {
            detail: { message, ...(email ? { email } : {}), ...(firstName ? { firstName } : {}) },
          }),
        );
      }
    },
  });

  const logoutMutation = useMutation<void, Error, void>({
    mutationFn: async () => {
      // The logout answer's body is not read: only its status matters.
      await apiRequest('POST', '/api/logout');
    },
    onSuccess: () => {
      queryClient.setQueryData(USER_QUERY_KEY, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== USER_QUERY_KEY[0] });
      sessionStorage.setItem(SIGNED_OUT_FLAG, '1');
      window.location.assign('/auth');
    },
    onError: (error) => {
      const statusText =
        error instanceof ApiRequestError ? error.statusText || String(error.status) : error.message;
      toast({
        title: 'Logout failed',
        description: statusText ? `Logout failed: ${statusText}` : 'Logout failed',
        variant: 'destructive',
      });
    },
  });

  return (
    <AuthContext.Provider
      value={{
        user: userQuery.data ?? null,
        isLoading: userQuery.isLoading,
        error: userQuery.error,
        loginMutation,
        registerMutation,
        logoutMutation,
      }}
    >
      {children}
    </AuthContext.Provider>
  );
}

/** The signed-in user and the auth mutations. Using it outside its provider throws. */
export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) {
    throw new Error('useAuth must be used within an AuthProvider');
  }
  return context;
}
