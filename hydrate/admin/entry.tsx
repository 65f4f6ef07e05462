import { createRoot } from 'react-dom/client';
import { AdminApp } from './admin-app.tsx';
import { createOwnerTracker } from './owner-events.ts';

// /assets/admin.js: the admin app (renderer/admin/admin-page.ts serves the page that loads it).

const root = document.getElementById('admin-root');
if (root) createRoot(root).render(<AdminApp track={createOwnerTracker(document)} />);
