import type { ApiId } from '../platform/catalog.js';
import type { AnyOperationModule } from './operation-module.js';
import { chatbotModule } from './chatbot/chatbot.module.js';
import { deliveryModule } from './delivery/delivery.module.js';
import { generateModule } from './generate/generate.module.js';
import { ocrIdcardModule } from './ocr-idcard/ocr-idcard.module.js';
import { shortenModule } from './shorten/shorten.module.js';
import { toneModule } from './tone/tone.module.js';
import { translateModule } from './translate/translate.module.js';
import { urlDetectModule } from './url-detect/url-detect.module.js';

/**
 * The operations of the service, in catalogue order: the one list an operation is added to.
 * The catalogue (./catalog.ts), the runtime's operations (`createOperations`), the HTTP routes,
 * their OpenAPI examples and error tables are all built from it.
 */
export const OPERATION_MODULES = [
  chatbotModule,
  toneModule,
  urlDetectModule,
  generateModule,
  ocrIdcardModule,
  translateModule,
  deliveryModule,
  shortenModule,
] as const;

export type OperationModules = (typeof OPERATION_MODULES)[number];

/** The same list, each module seen alike (for code that does not need one's own types). */
export const MODULES: readonly AnyOperationModule[] = OPERATION_MODULES;

/** The eight operations by catalogue id, each typed by its own input and output. */
export type Operations = { [M in OperationModules as M['catalog']['id']]: ReturnType<M['create']> };

type Intersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;

/** Everything the modules' `create` ask for, together: what the runtime hands them. */
export type OperationDeps = Intersection<Parameters<OperationModules['create']>[0]>;

/** Builds every operation with the dependencies its module names. */
export function createOperations(deps: OperationDeps): Operations {
  return Object.fromEntries(OPERATION_MODULES.map((module) => [module.catalog.id, module.create(deps)])) as Operations;
}

/**
 * The platform charges by id (src/platform/catalog.ts `API_IDS`, which cannot import the
 * operations that import it): this fails to compile when an id has no module or a module no id.
 */
type ModuleIds = OperationModules['catalog']['id'];
export const idsMatchModules: [ApiId] extends [ModuleIds] ? ([ModuleIds] extends [ApiId] ? true : never) : never = true;
