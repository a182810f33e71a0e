import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouteErrorBoundary } from '../components/errors/route-error-boundary';
import { lazyRoute } from '../lib/preload-error';

// Error boundaries are the one static part of a route: they must exist before the route's own chunk,
// because they are what shows when that chunk fails to load. Leaves have one so errors stay inside the shell.
const leaf = (route: RouteObject): RouteObject => ({ ErrorBoundary: RouteErrorBoundary, ...route });

/** Every route is a lazy import, so a page's code loads when it is first opened. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    lazy: lazyRoute(() => import('./routes/root')),
    ErrorBoundary: RouteErrorBoundary,
    // Nothing to show while the first chunks load; theme-init.js has already painted the background.
    HydrateFallback: () => null,
    children: [
      {
        // The sign-in page, outside the shell; `/` is the sign-in page too.
        id: 'sign-in',
        lazy: lazyRoute(() => import('./routes/auth/sign-in-layout')),
        ErrorBoundary: RouteErrorBoundary,
        children: [
          leaf({ index: true, lazy: lazyRoute(() => import('./routes/auth/login-page')) }),
          leaf({ path: 'login', lazy: lazyRoute(() => import('./routes/auth/login-page')) }),
        ],
      },
      {
        // The other pages a signed-out visitor may open, on the same centred layout.
        id: 'auth',
        lazy: lazyRoute(() => import('./routes/auth/auth-layout')),
        ErrorBoundary: RouteErrorBoundary,
        children: [
          leaf({ path: 'register', lazy: lazyRoute(() => import('./routes/auth/register-page')) }),
          leaf({
            path: 'register/success',
            lazy: lazyRoute(() => import('./routes/auth/register-success-page')),
          }),
          leaf({ path: 'bot/forgot', lazy: lazyRoute(() => import('./routes/auth/forgot-password-page')) }),
          leaf({ path: 'bot/password', lazy: lazyRoute(() => import('./routes/auth/reset-password-page')) }),
        ],
      },
      {
        // Every other path needs a signed-in user whose start-up flow has finished (RequireSession).
        id: 'shell',
        lazy: lazyRoute(() => import('./routes/app/shell')),
        ErrorBoundary: RouteErrorBoundary,
        children: [
          leaf({ path: 'start', lazy: lazyRoute(() => import('./routes/app/landing-page')) }),
          leaf({
            path: 'getting-started',
            lazy: lazyRoute(() => import('./routes/getting-started/getting-started-page')),
          }),
          leaf({ path: 'inbox', lazy: lazyRoute(() => import('./routes/inbox/inbox-page')) }),
          leaf({ path: 'extra/search', lazy: lazyRoute(() => import('./routes/extra/menu-search-page')) }),
          leaf({ path: 'profile', lazy: lazyRoute(() => import('./routes/account/profile-page')) }),
          leaf({ path: 'account', lazy: lazyRoute(() => import('./routes/account/service-address-page')) }),
          leaf({ path: 'credential', lazy: lazyRoute(() => import('./routes/account/credential-page')) }),
          leaf({ path: 'user', lazy: lazyRoute(() => import('./routes/users/users-page')) }),
          leaf({ path: 'user/add', lazy: lazyRoute(() => import('./routes/users/user-add-page')) }),
          leaf({ path: 'user/view', lazy: lazyRoute(() => import('./routes/users/user-view-page')) }),
          leaf({ path: 'schedule', lazy: lazyRoute(() => import('./routes/schedule/schedule-list-page')) }),
          leaf({
            path: 'schedule/add',
            lazy: lazyRoute(() => import('./routes/schedule/schedule-add-page')),
          }),
          leaf({
            path: 'schedule/view',
            lazy: lazyRoute(() => import('./routes/schedule/schedule-view-page')),
          }),
          leaf({ path: 'calendar', lazy: lazyRoute(() => import('./routes/schedule/calendar-page')) }),
          leaf({ path: 'file', lazy: lazyRoute(() => import('./routes/files/file-manager-page')) }),
          leaf({ path: 'model', lazy: lazyRoute(() => import('./routes/model/model-page')) }),
          leaf({ path: 'bot/gallery', lazy: lazyRoute(() => import('./routes/files/gallery-page')) }),
          leaf({ path: 'bot/dashboard', lazy: lazyRoute(() => import('./routes/bot/bot-dashboard-page')) }),
          leaf({ path: 'bot/prompt/test', lazy: lazyRoute(() => import('./routes/bot/bot-chat-page')) }),
          leaf({ path: 'bot/testing', lazy: lazyRoute(() => import('./routes/bot/bot-testing-page')) }),
          leaf({
            path: 'bot/template/create',
            lazy: lazyRoute(() => import('./routes/bot-template/template-create-page')),
          }),
          leaf({
            path: 'bot/template/manage',
            lazy: lazyRoute(() => import('./routes/bot-template/template-manage-page')),
          }),
          leaf({
            path: 'bot/integration',
            lazy: lazyRoute(() => import('./routes/integration/integration-overview-page')),
          }),
          leaf({
            path: 'bot/integration/list',
            lazy: lazyRoute(() => import('./routes/integration/integration-list-page')),
          }),
          leaf({
            path: 'bot/integration/add',
            lazy: lazyRoute(() => import('./routes/integration/integration-add-page')),
          }),
          leaf({
            path: 'bot/integration/view',
            lazy: lazyRoute(() => import('./routes/integration/integration-view-page')),
          }),
          leaf({
            path: 'bot/integration/chatbot',
            lazy: lazyRoute(() => import('./routes/integration/integration-chatbot-page')),
          }),
          leaf({
            path: 'bot/integration/ccaas',
            lazy: lazyRoute(() => import('./routes/integration/integration-ccaas-page')),
          }),
          leaf({ path: 'bot/manage', lazy: lazyRoute(() => import('./routes/bot/bot-manage-page')) }),
          leaf({ path: 'bot/customize', lazy: lazyRoute(() => import('./routes/bot/bot-customize-page')) }),
          leaf({ path: 'bot/install', lazy: lazyRoute(() => import('./routes/bot/bot-install-page')) }),
          leaf({
            path: 'bot/config/message',
            lazy: lazyRoute(() => import('./routes/bot/bot-message-page')),
          }),
          leaf({ path: 'bot/config/rag', lazy: lazyRoute(() => import('./routes/bot/bot-rag-page')) }),
          leaf({ path: 'prompt', lazy: lazyRoute(() => import('./routes/prompt/prompt-list-page')) }),
          leaf({
            path: 'prompt/compose',
            lazy: lazyRoute(() => import('./routes/prompt/prompt-compose-page')),
          }),
          leaf({
            path: 'prompt/detail/:id',
            lazy: lazyRoute(() => import('./routes/prompt/prompt-detail-page')),
          }),
          leaf({
            path: 'knowledge',
            lazy: lazyRoute(() => import('./routes/knowledge/knowledge-list-page')),
          }),
          leaf({
            path: 'knowledge/add',
            lazy: lazyRoute(() => import('./routes/knowledge/knowledge-add-page')),
          }),
          leaf({
            path: 'knowledge/view',
            lazy: lazyRoute(() => import('./routes/knowledge/knowledge-view-page')),
          }),
          leaf({
            path: 'cs/config',
            lazy: lazyRoute(() => import('./routes/case-summary/case-summary-list-page')),
          }),
          leaf({
            path: 'cs/config/add',
            lazy: lazyRoute(() => import('./routes/case-summary/case-summary-add-page')),
          }),
          leaf({
            path: 'cs/config/view',
            lazy: lazyRoute(() => import('./routes/case-summary/case-summary-view-page')),
          }),
          leaf({ path: 'rag', lazy: lazyRoute(() => import('./routes/rag/rag-list-page')) }),
          leaf({ path: 'rag/add', lazy: lazyRoute(() => import('./routes/rag/rag-add-page')) }),
          leaf({ path: 'rag/view', lazy: lazyRoute(() => import('./routes/rag/rag-view-page')) }),
          leaf({
            path: 'knowledge/bulk',
            lazy: lazyRoute(() => import('./routes/knowledge/knowledge-bulk-page')),
          }),
          leaf({ path: 'index', lazy: lazyRoute(() => import('./routes/index/index-list-page')) }),
          leaf({ path: 'index/add', lazy: lazyRoute(() => import('./routes/index/index-add-page')) }),
          leaf({ path: 'index/view', lazy: lazyRoute(() => import('./routes/index/index-view-page')) }),
          leaf({ path: 'tenant', lazy: lazyRoute(() => import('./routes/tenant/tenant-list-page')) }),
          leaf({ path: 'tenant/add', lazy: lazyRoute(() => import('./routes/tenant/tenant-add-page')) }),
          leaf({ path: 'tenant/view', lazy: lazyRoute(() => import('./routes/tenant/tenant-view-page')) }),
          leaf({
            path: 'subscription',
            lazy: lazyRoute(() => import('./routes/subscription/subscription-list-page')),
          }),
          leaf({
            path: 'subscription/add',
            lazy: lazyRoute(() => import('./routes/subscription/subscription-add-page')),
          }),
          leaf({
            path: 'subscription/assign',
            lazy: lazyRoute(() => import('./routes/subscription/subscription-assign-page')),
          }),
          leaf({
            path: 'subscription/assign/detail',
            lazy: lazyRoute(() => import('./routes/subscription/subscription-matrix-page')),
          }),
          leaf({
            path: 'subscription/view',
            lazy: lazyRoute(() => import('./routes/subscription/subscription-view-page')),
          }),
          // Inside the shell, so the menu stays at hand on an unknown path.
          leaf({ path: '*', lazy: lazyRoute(() => import('./routes/not-found')) }),
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
