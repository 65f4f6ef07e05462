import type { FastifyInstance } from 'fastify';

// The admin's page (README "Admin"): a fixed shell that loads the admin bundle
// (hydrate/admin/, built beside the islands into dist/assets/admin.js and admin.css). No
// inline script, so the storefront's Content-Security-Policy (security-headers.ts) serves it
// unchanged; everything the app shows comes from the /api/admin/ and [admin] API calls.

export const ADMIN_PATH = '/admin';

export const ADMIN_SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Store admin</title>
<link rel="stylesheet" href="/assets/admin-style.css">
</head>
<body>
<div id="admin-root"><main class="admin-loading"><h1>Store admin</h1><p>Loading…</p></main></div>
<script type="module" src="/assets/admin.js"></script>
</body>
</html>
`;

export async function adminPage(app: FastifyInstance): Promise<void> {
  for (const url of [ADMIN_PATH, `${ADMIN_PATH}/`]) {
    app.get(url, async (_request, reply) =>
      reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(ADMIN_SHELL),
    );
  }
}
