import express, { Router } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { projectPath } from '../../src/paths.js';
import type { Runtime } from '../../src/runtime.js';
import { buildOpenApiDocument } from '../openapi.js';

/** swagger-ui-dist ships the built UI as static files (and no types): serve its folder. */
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const DOCS_PAGE = `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>AI Utility Hub API 문서</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true,
  persistAuthorization: true, tryItOutEnabled: true });`;

/** `/openapi.json`, interactive docs at `/docs` (Swagger UI served from the package, no CDN), the portal at `/`, `/terms`, `/privacy`. */
export function docsRoutes(runtime: Runtime): Router {
  const router = Router();
  const document = JSON.stringify(buildOpenApiDocument(runtime));

  router.get('/openapi.json', (_req, res) => {
    res.type('json').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('js').send(DOCS_INIT);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { maxAge: '1d', index: false }));
  // `/terms` and `/privacy` are terms.html and privacy.html.
  router.use('/', express.static(projectPath('api', 'public'), { index: 'index.html', extensions: ['html'], maxAge: '10m' }));
  return router;
}
