import './styles.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';

import { ErrorBoundary } from '@/app/error-boundary';
import { AppProviders } from '@/app/providers';
import { createAppRouter } from '@/app/router';

const router = createAppRouter();

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <ErrorBoundary fullPage>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </ErrorBoundary>
  </StrictMode>,
);
