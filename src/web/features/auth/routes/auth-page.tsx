import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginInput, loginSchema, type RegisterInput, registerSchema, type User } from '@shared/auth';
import { PLAN_NAMES } from '@shared/plans';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { PAGE_META } from '@/app/page-meta';
import { getRoleHome } from '@/app/paths';
import { FullPageLoader } from '@/components/page-loader';
import { PasswordInput } from '@/components/password-input';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { SWITCH_TO_LOGIN_EVENT, type SwitchToLoginDetail, useAuth } from '@/hooks/use-auth';
import { usePageMeta } from '@/hooks/use-page-meta';
import { toast } from '@/hooks/use-toast';
import { apiRequest } from '@/lib/api';
import { usePageViewBeacon } from '@/lib/page-view-beacon';
import { USER_QUERY_KEY } from '@/lib/query-client';

import { useSignupStatus } from '../api/signup-status';
import { AuthShell } from '../components/auth-shell';
import {
  destinationAfterRegistration,
  destinationAfterSignIn,
  paymentPath,
  readAuthParams,
} from '../lib/destinations';

type Mode = 'login' | 'register';

/** Redirect delays after sign-in: 1 s normally, 1.5 s when a payment is still needed. */
const SIGN_IN_REDIRECT_MS = 1000;
const PAYMENT_REDIRECT_MS = 1500;

export default function AuthPage() {
  const { user, isLoading, loginMutation, registerMutation } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const params = readAuthParams(searchParams);
  const [mode, setMode] = useState<Mode>(params.startOnSignUp ? 'register' : 'login');
  const signupStatus = useSignupStatus().data;
  // Set from submit until the post-sign-in redirect, so the signed-in bounce below does not cut the toast short.
  const [handingOff, setHandingOff] = useState(false);
  const timers = useRef<number[]>([]);
  const pendingFocus = useRef<keyof LoginInput | null>(null);

  usePageMeta(PAGE_META['/auth']!);
  // The sign-up page is the top of the funnel on Website Traffic (signed-out visitors only).
  usePageViewBeacon(!isLoading && !user);

  const loginForm = useForm<z.input<typeof loginSchema>, unknown, LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });
  const registerForm = useForm<z.input<typeof registerSchema>, unknown, RegisterInput>({
    resolver: zodResolver(registerSchema),
    defaultValues: { firstName: '', lastName: '', email: params.email, password: '' },
  });

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) window.clearTimeout(timer);
    };
  }, []);

  // The chosen plan travels to the payment screen in browser storage (selectedPlan, selectedInterval).
  useEffect(() => {
    if (params.plan) {
      localStorage.setItem('selectedPlan', params.plan);
      localStorage.setItem('selectedInterval', params.interval);
    }
  }, [params.plan, params.interval]);

  // Registration that finds an existing account switches to sign in with the email filled in.
  useEffect(() => {
    function onSwitch(event: Event) {
      const { email } = (event as CustomEvent<SwitchToLoginDetail>).detail ?? {};
      setMode('login');
      if (email) loginForm.setValue('email', email);
      pendingFocus.current = email ? 'password' : 'email';
    }
    window.addEventListener(SWITCH_TO_LOGIN_EVENT, onSwitch);
    return () => window.removeEventListener(SWITCH_TO_LOGIN_EVENT, onSwitch);
  }, [loginForm]);

  // Focus once the sign-in fields are back in the DOM: Radix mounts a tab's content one (synchronous)
  // render after the switch, so the focus waits for the next task.
  useEffect(() => {
    const field = pendingFocus.current;
    if (mode !== 'login' || !field) return;
    const timer = window.setTimeout(() => {
      pendingFocus.current = null;
      loginForm.setFocus(field);
    }, 0);
    return () => window.clearTimeout(timer);
  }, [mode, loginForm]);

  if (isLoading) return <FullPageLoader />;
  if (user && !handingOff) return <Navigate to={getRoleHome(user.role)} replace />;

  function later(callback: () => void, delay: number) {
    timers.current.push(window.setTimeout(callback, delay));
  }

  function onLogin(values: LoginInput) {
    setHandingOff(true);
    loginMutation.mutate(values, {
      onSuccess: (response) => {
        const info = response.subscriptionInfo;
        if (info?.needsPayment && info.subscriptionPlan !== 'free') {
          toast({
            title: 'Welcome back!',
            description: info.message || `Signed in as ${response.firstName}`,
          });
          later(
            () => navigate(paymentPath(info.subscriptionPlan, 'monthly', true), { replace: true }),
            PAYMENT_REDIRECT_MS,
          );
          return;
        }
        toast({ title: 'Welcome back!', description: `Signed in as ${response.firstName}` });
        later(
          () =>
            navigate(destinationAfterSignIn(response.role, params.plan, params.interval), { replace: true }),
          SIGN_IN_REDIRECT_MS,
        );
      },
      onError: () => setHandingOff(false),
    });
  }

  function onRegister(values: RegisterInput) {
    setHandingOff(true);
    const lastName = values.lastName?.trim();
    registerMutation.mutate(
      { ...values, ...(lastName ? { lastName } : { lastName: undefined }) },
      {
        onSuccess: async (created) => {
          toast({ title: 'Account created!', description: `Welcome to Tambari, ${created.firstName}!` });
          if (params.plan && params.plan !== 'free') {
            // The chosen plan is recorded on the account (status incomplete until paid), so a later sign-in
            // brings the user back to finish paying (needsPayment). The payment screen works even if
            // this fails, so a failure only costs that reminder.
            try {
              const res = await apiRequest('POST', '/api/subscription/select-plan', {
                planId: params.plan,
                interval: params.interval,
              });
              queryClient.setQueryData<User | null>(USER_QUERY_KEY, (await res.json()) as User);
              // Replaces the refetch registration started, which may answer with the plan before this change.
              void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
            } catch {
              // Paying still works from /payment.
            }
          }
          navigate(destinationAfterRegistration(params.plan, params.interval), { replace: true });
        },
        onError: () => setHandingOff(false),
      },
    );
  }

  const loginBusy = loginMutation.isPending || (handingOff && loginMutation.isSuccess);
  const registerBusy = registerMutation.isPending || (handingOff && registerMutation.isSuccess);
  const paidPlan = params.plan && params.plan !== 'free' ? params.plan : null;

  return (
    <AuthShell>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-bold tracking-tight" data-testid="auth-headline">
          {mode === 'login' ? 'Welcome Back' : 'Join Tambari'}
        </h1>
        <p className="text-muted-foreground">
          {mode === 'login'
            ? 'Sign in to your account to pick up where you left off.'
            : 'Create your free account and start finding verified business leads today.'}
        </p>
      </div>

      {paidPlan && (
        <p
          className="mb-6 rounded-lg border border-gold/40 bg-accent px-4 py-3 text-sm text-accent-foreground"
          data-testid="auth-plan-note"
        >
          You chose the <strong>{PLAN_NAMES[paidPlan]}</strong> plan, billed{' '}
          {params.interval === 'annual' ? 'annually' : 'monthly'}. You will pay in Naira right after{' '}
          {mode === 'login' ? 'signing in' : 'creating your account'}.
        </p>
      )}

      <Tabs value={mode} onValueChange={(value) => setMode(value as Mode)}>
        <TabsList className="mb-6 grid w-full grid-cols-2" aria-label="Sign in or create an account">
          <TabsTrigger value="login" data-testid="auth-tab-login">
            Sign in
          </TabsTrigger>
          <TabsTrigger value="register" data-testid="auth-tab-register">
            Create account
          </TabsTrigger>
        </TabsList>

        <TabsContent value="login">
          <Form {...loginForm}>
            <form
              onSubmit={loginForm.handleSubmit(onLogin)}
              className="space-y-5"
              noValidate
              data-testid="login-form"
            >
              <FormField
                control={loginForm.control}
                name="email"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Email</FormLabel>
                    <FormControl>
                      <Input
                        type="email"
                        autoComplete="email"
                        placeholder="you@company.com"
                        data-testid="login-email"
                        {...field}
                      />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={loginForm.control}
                name="password"
                render={({ field }) => (
                  <FormItem>
                    <div className="flex items-center justify-between">
                      <FormLabel>Password</FormLabel>
                      <Link
                        to="/forgot-password"
                        className="rounded-sm text-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                        data-testid="forgot-password-link"
                      >
                        Forgot password?
                      </Link>
                    </div>
                    <FormControl>
                      <PasswordInput
                        autoComplete="current-password"
                        data-testid="login-password"
                        {...field}
                      />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <Button
                type="submit"
                className="w-full"
                size="lg"
                disabled={loginBusy}
                data-testid="login-submit"
              >
                {loginBusy && <Loader2 className="animate-spin" aria-hidden="true" />}
                {loginMutation.isSuccess && handingOff ? 'Signing you in…' : 'Sign in'}
              </Button>
              <p className="text-center text-sm text-muted-foreground">
                New to Tambari?{' '}
                <button
                  type="button"
                  className="font-medium text-primary underline-offset-4 hover:underline"
                  onClick={() => setMode('register')}
                >
                  Create a free account
                </button>
              </p>
            </form>
          </Form>
        </TabsContent>

        <TabsContent value="register">
          {signupStatus && !signupStatus.open ? (
            <Alert data-testid="signups-closed">
              <AlertTitle>Sign-ups are closed</AlertTitle>
              <AlertDescription>{signupStatus.message}</AlertDescription>
            </Alert>
          ) : (
            <Form {...registerForm}>
              <form
                onSubmit={registerForm.handleSubmit(onRegister)}
                className="space-y-5"
                noValidate
                data-testid="register-form"
              >
                <div className="grid items-start gap-5 sm:grid-cols-2">
                  <FormField
                    control={registerForm.control}
                    name="firstName"
                    render={({ field }) => (
                      <FormItem>
                        <FormLabel>First name</FormLabel>
                        <FormControl>
                          <Input autoComplete="given-name" data-testid="register-first-name" {...field} />
                        </FormControl>
                        <FormMessage />
                      </FormItem>
                    )}
                  />
                  <FormField
                    control={registerForm.control}
                    name="lastName"
                    render={({ field }) => (
                      <FormItem>
                        <FormLabel>Last name (optional)</FormLabel>
                        <FormControl>
                          <Input
                            autoComplete="family-name"
                            data-testid="register-last-name"
                            {...field}
                            value={field.value ?? ''}
                          />
                        </FormControl>
                        <FormMessage />
                      </FormItem>
                    )}
                  />
                </div>
                <FormField
                  control={registerForm.control}
                  name="email"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Email</FormLabel>
                      <FormControl>
                        <Input
                          type="text"
                          inputMode="email"
                          autoComplete="email"
                          placeholder="you@company.com"
                          data-testid="register-email"
                          {...field}
                        />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <FormField
                  control={registerForm.control}
                  name="password"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Password</FormLabel>
                      <FormControl>
                        <PasswordInput
                          autoComplete="new-password"
                          data-testid="register-password"
                          {...field}
                        />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <Button
                  type="submit"
                  className="w-full"
                  size="lg"
                  disabled={registerBusy}
                  data-testid="register-submit"
                >
                  {registerBusy && <Loader2 className="animate-spin" aria-hidden="true" />}
                  Create account
                </Button>
                <p className="text-center text-xs text-muted-foreground">
                  By creating an account you agree to our{' '}
                  <Link to="/terms" className="underline underline-offset-4">
                    Terms of Service
                  </Link>{' '}
                  and{' '}
                  <Link to="/privacy" className="underline underline-offset-4">
                    Privacy Policy
                  </Link>
                  .
                </p>
              </form>
            </Form>
          )}
        </TabsContent>
      </Tabs>
    </AuthShell>
  );
}
