// Placeholder: the undici client, token provider and error mapping are built in the CLI-core issue.
import type { GlobalOptions } from '../cli/deps.js';
import { IdmError } from '../cli/errors.js';
import type { IO } from '../io/terminal.js';
import type { ApiClient } from './types.js';

export async function createApiClient(_options: { io: IO; globals: GlobalOptions }): Promise<ApiClient> {
  throw new IdmError('The management client is not built yet.');
}
