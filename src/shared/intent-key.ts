/**
 * The one canonical key of an intent name (docs/protocol.md "The query document", "Permissions and row scopes", "Processors"). An intent is accepted in camelCase
 * (`uploadPackage`) or snake_case (`upload_package`); both spellings have one key, the camelCase one,
 * and the server looks up the controller handler, the `permissions` map, the `files` map and the
 * `readOnly` list (and the model intents) by that key alone. A name that is neither (`UploadPackage`,
 * `upload_Package`, `upload-package`) has no key: it is refused, so no spelling can reach a handler
 * while missing the permission entry written for it.
 *
 * The two forms map onto each other one to one: a camelCase word starts at each capital letter, a
 * snake_case word after each `_` and must start with a letter (`upload_2` would turn into `upload2`,
 * whose snake_case form is not `upload_2`). So `getURL` is the words get/u/r/l: handler `on_get_u_r_l`.
 */

const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$/;
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)*$/;
/** Far above any real intent; keeps a hostile name out of messages and maps. */
export const MAX_INTENT_LENGTH = 100;

/** The canonical (camelCase) key of an intent name, or null when the name is not an intent name. */
export function intentKey(name: string): string | null {
  if (name.length === 0 || name.length > MAX_INTENT_LENGTH) return null;
  if (CAMEL.test(name)) return name;
  if (SNAKE.test(name)) return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return null;
}

/** `uploadPackage` -> `upload_package`: the snake_case form of a canonical key. */
export function snakeIntentOf(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The controller method that handles an intent: `uploadPackage` -> `on_upload_package`. */
export function handlerNameOf(key: string): string {
  return `on_${snakeIntentOf(key)}`;
}

/** The intent a controller method handles (`on_upload_package` -> `uploadPackage`), or null when it handles none. */
export function intentOfHandler(method: string): string | null {
  if (!method.startsWith('on_')) return null;
  const snake = method.slice(3);
  return SNAKE.test(snake) ? intentKey(snake) : null;
}
