import express, { Router } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { z } from 'zod';
import { projectPath } from '../../src/paths.js';
import type { Runtime } from '../../src/runtime.js';
import { buildOpenApiDocument } from '../openapi.js';
import { defineRoute, type Route } from '../route.js';

/** swagger-ui-dist ships the built UI as static files (and no types): serve its folder. */
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const DOCS_PAGE = `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>AI Utility Hub API 문서</title><link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><nav style="padding:.75rem 1rem;border-bottom:1px solid #d5d9e2;font:16px system-ui,sans-serif"><a href="/" style="color:#1f4fd1">← 포털로 돌아가기 (키 만들기·사용량)</a></nav><div id="docs"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true,
  persistAuthorization: true, tryItOutEnabled: true });`;

/**
 * `/openapi.json`, declared like every other route and generated from all of them (itself
 * included): pass the routes the app mounts.
 */
export function openApiRoute(runtime: Runtime, routes: readonly Route[]): Route {
  let document = '';
  const route = defineRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: '문서',
    summary: '이 문서 (OpenAPI 3.1)',
    auth: 'none',
    answers: {
      200: {
        description: 'OpenAPI 문서',
        schema: z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.looseObject({})) }),
      },
    },
    handler: (_input, _req, res) => void res.type('json').send(document),
  });
  document = JSON.stringify(buildOpenApiDocument(runtime, [...routes, route]));
  return route;
}

/** Interactive docs at `/docs` (Swagger UI served from the package, no CDN), the portal at `/`, `/terms`, `/privacy`: pages, not API. */
export function docsPages(): Router {
  const router = Router();
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
