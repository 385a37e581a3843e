import type { Role } from '@shared/roles';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { NavLink } from 'react-router';

import { ADMIN_MENU, DATA_ENTRY_MENU, type NavGroup, type NavItem, USER_MENU } from '@/app/navigation';
import type { ViewMode } from '@/app/view-mode';
import { BrandLogo } from '@/components/brand-logo';
import { cn } from '@/lib/utils';

function NavItemLink({ item, onNavigate }: { item: NavItem; onNavigate?: () => void }) {
  return (
    <NavLink
      to={item.href}
      end={item.href === '/dashboard'}
      onClick={onNavigate}
      data-testid={`nav-${item.href.replace(/^\//, '').replace(/\//g, '-')}`}
      className={({ isActive }) =>
        cn(
          'group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-sidebar-primary',
          isActive
            ? 'bg-sidebar-accent text-sidebar-accent-foreground'
            : 'text-sidebar-foreground/85 hover:bg-sidebar-accent/60 hover:text-sidebar-accent-foreground',
        )
      }
    >
      {({ isActive }) => (
        <>
          <item.icon
            className={cn('size-4 shrink-0', isActive ? 'text-sidebar-primary' : 'text-sidebar-muted')}
            aria-hidden="true"
          />
          <span className="truncate">{item.title}</span>
        </>
      )}
    </NavLink>
  );
}

function NavGroupSection({
  group,
  open,
  onToggle,
  onNavigate,
}: {
  group: NavGroup;
  open: boolean;
  onToggle: () => void;
  onNavigate?: () => void;
}) {
  const listId = `nav-group-${group.id}`;
  return (
    <div className="space-y-1" data-testid={`nav-group-${group.id}`}>
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={open}
        aria-controls={listId}
        className="flex w-full items-center justify-between rounded-md px-3 py-1.5 text-xs font-semibold tracking-wide text-sidebar-muted uppercase outline-none hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-sidebar-primary"
      >
        {group.title}
        <ChevronDown
          className={cn('size-3.5 transition-transform', !open && '-rotate-90')}
          aria-hidden="true"
        />
      </button>
      <ul id={listId} hidden={!open} className="space-y-0.5">
        {group.items.map((item) => (
          <li key={item.href}>
            <NavItemLink item={item} onNavigate={onNavigate} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function AdminNav({ onNavigate }: { onNavigate?: () => void }) {
  const [openGroups, setOpenGroups] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(ADMIN_MENU.map((group) => [group.id, group.defaultOpen])),
  );
  return (
    <div className="space-y-4">
      {ADMIN_MENU.map((group) => (
        <NavGroupSection
          key={group.id}
          group={group}
          open={openGroups[group.id] ?? false}
          onToggle={() => setOpenGroups((state) => ({ ...state, [group.id]: !state[group.id] }))}
          onNavigate={onNavigate}
        />
      ))}
    </div>
  );
}

function FlatNav({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  return (
    <ul className="space-y-0.5">
      {items.map((item) => (
        <li key={item.href}>
          <NavItemLink item={item} onNavigate={onNavigate} />
        </li>
      ))}
    </ul>
  );
}

/**
 * The signed-in navigation: the admin menu in admin view, the data entry menu for data
 * entry officers, the subscriber menu otherwise. Used by the desktop sidebar and the mobile drawer.
 */
export function SidebarNav({
  role,
  viewMode,
  onNavigate,
}: {
  role: Role;
  viewMode: ViewMode;
  onNavigate?: () => void;
}) {
  const label = viewMode === 'admin' ? 'Admin navigation' : 'Main navigation';
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 shrink-0 items-center border-b border-sidebar-border px-5">
        <BrandLogo
          to={
            role === 'data_entry' ? '/data-entry' : viewMode === 'admin' ? '/admin-dashboard' : '/dashboard'
          }
          tone="inverted"
        />
      </div>
      <nav aria-label={label} className="flex-1 overflow-y-auto px-3 py-4" data-view-mode={viewMode}>
        {role === 'data_entry' ? (
          <FlatNav items={DATA_ENTRY_MENU} onNavigate={onNavigate} />
        ) : viewMode === 'admin' ? (
          <AdminNav onNavigate={onNavigate} />
        ) : (
          <FlatNav items={USER_MENU} onNavigate={onNavigate} />
        )}
      </nav>
      {viewMode === 'admin' && (
        <p className="border-t border-sidebar-border px-5 py-3 text-xs text-sidebar-muted">Admin view</p>
      )}
    </div>
  );
}
