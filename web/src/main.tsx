// The app's entry: Mantine's theme, the API cache and the routes.
import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { whenSignedOut } from './api/client.ts';
import { queryClient } from './api/queryClient.ts';
import { forgetSession, prefetchAuthState } from './features/auth/queries/authState.ts';
import { createRouter } from './routes.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

whenSignedOut(forgetSession);
prefetchAuthState();
const router = createRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
