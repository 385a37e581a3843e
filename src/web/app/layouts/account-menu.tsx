import type { User } from '@shared/auth';
import { PLAN_NAMES } from '@shared/plans';
import { ROLE_LABELS } from '@shared/roles';
import { ChevronDown, CreditCard, Inbox, LifeBuoy, Loader2, LogOut, Settings, UserRound } from 'lucide-react';
import { Link } from 'react-router';

import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useInboxCounts } from '@/features/inbox/api/inbox';
import { useAuth } from '@/hooks/use-auth';

/** The label reads Super Admin or Data Entry Officer for those roles; subscribers see their plan. */
export function getAccountLabel(user: Pick<User, 'role' | 'subscriptionPlan'>): string {
  if (user.role === 'super_admin' || user.role === 'data_entry') return ROLE_LABELS[user.role];
  return `${PLAN_NAMES[user.subscriptionPlan]} Plan`;
}

export function getDisplayName(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || user.email;
}

function initials(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  const letters = `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`.trim();
  return (letters || user.email[0] || '?').toUpperCase();
}

export function AccountMenu({ user }: { user: User }) {
  const { logoutMutation } = useAuth();
  const name = getDisplayName(user);
  const label = getAccountLabel(user);
  // Data entry officers only reach /data-entry and /help, so their menu has no account pages.
  const showAccountPages = user.role !== 'data_entry';
  const showInbox = user.role === 'user';
  const unread = useInboxCounts(showInbox).data?.unread ?? 0;

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 data-[state=open]:bg-accent"
        aria-label={`Account menu for ${name}`}
        data-testid="account-menu"
      >
        <Avatar className="relative size-8 overflow-visible">
          <AvatarFallback className="bg-primary text-xs font-semibold text-primary-foreground">
            {initials(user)}
          </AvatarFallback>
          {showInbox && unread > 0 && (
            <span
              className="absolute -top-1 -right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] font-semibold text-white"
              data-testid="account-menu-unread"
            >
              {unread > 99 ? '99+' : unread}
              <span className="sr-only"> unread in the inbox</span>
            </span>
          )}
        </Avatar>
        <span className="hidden max-w-36 truncate font-medium lg:inline">{user.firstName || user.email}</span>
        <ChevronDown className="hidden size-4 text-muted-foreground lg:inline" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64" data-testid="account-menu-content">
        <DropdownMenuLabel className="font-normal">
          <div className="flex flex-col gap-1">
            <p className="truncate text-sm font-medium" data-testid="account-name">
              {name}
            </p>
            <p className="truncate text-xs text-muted-foreground" data-testid="account-email">
              {user.email}
            </p>
            <p
              className="mt-1 w-fit rounded-md bg-accent px-1.5 py-0.5 text-xs font-medium text-accent-foreground"
              data-testid="account-role-label"
            >
              {label}
            </p>
          </div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          {showInbox && (
            <DropdownMenuItem asChild>
              <Link to="/inbox" data-testid="account-menu-inbox">
                <Inbox aria-hidden="true" />
                Inbox
                {unread > 0 && (
                  <span className="ml-auto rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground">
                    {unread}
                  </span>
                )}
              </Link>
            </DropdownMenuItem>
          )}
          {showAccountPages && (
            <>
              <DropdownMenuItem asChild>
                <Link to="/settings#account-settings" data-testid="account-menu-profile">
                  <UserRound aria-hidden="true" />
                  Profile
                </Link>
              </DropdownMenuItem>
              <DropdownMenuItem asChild>
                <Link to="/settings" data-testid="account-menu-settings">
                  <Settings aria-hidden="true" />
                  Settings
                </Link>
              </DropdownMenuItem>
              <DropdownMenuItem asChild>
                <Link to="/subscription" data-testid="account-menu-billing">
                  <CreditCard aria-hidden="true" />
                  Billing
                </Link>
              </DropdownMenuItem>
            </>
          )}
          <DropdownMenuItem asChild>
            <Link to="/help" data-testid="account-menu-help">
              <LifeBuoy aria-hidden="true" />
              Help &amp; Support
            </Link>
          </DropdownMenuItem>
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          variant="destructive"
          disabled={logoutMutation.isPending}
          onSelect={(event) => {
            event.preventDefault();
            logoutMutation.mutate();
          }}
          data-testid="account-menu-sign-out"
        >
          {logoutMutation.isPending ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <LogOut aria-hidden="true" />
          )}
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
