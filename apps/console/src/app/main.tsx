import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { listenForVitePreloadErrors } from '../lib/preload-error';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

listenForVitePreloadErrors();

const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
