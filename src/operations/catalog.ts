import type { ApiId } from '../platform/catalog.js';
import { MODULES, OPERATION_MODULES, type OperationModules } from './modules.js';
import type { AnyOperationModule, CatalogAvailability, CatalogEntry, CatalogFeatures } from './operation-module.js';

export type { CatalogAvailability, CatalogFeatures };

/** The eight APIs of the service (CONTRACT §3), from their modules: the `id` is the `api` constant of each answer. */
export const CATALOG: ReadonlyArray<OperationModules['catalog']> = OPERATION_MODULES.map((module) => module.catalog);

/** The APIs every new account is subscribed to at sign-up. */
export const OPEN_APIS: ApiId[] = CATALOG.filter((api) => !api.requiresSubscription).map((api) => api.id);

export function operationModule(id: ApiId): AnyOperationModule {
  const found = MODULES.find((module) => module.catalog.id === id);
  if (!found) throw new Error(`unknown api ${id}`);
  return found;
}

export function catalogEntry(id: ApiId): CatalogEntry {
  return operationModule(id).catalog;
}

/** Whether an API works on this server and what answers it: AI-only APIs answer 503 without an LLM, the others fall back to embedded engines. */
export function availabilityOf(id: ApiId, features: CatalogFeatures): CatalogAvailability {
  return catalogEntry(id).availability(features);
}

/** An API's name in words, for messages: `{ko: 'URL 단축', en: 'URL shortener'}`. */
export function apiLabel(id: ApiId): { ko: string; en: string } {
  const { name, nameEn } = catalogEntry(id);
  return { ko: name, en: nameEn };
}
