// Profile names for shell completion: read from the config file with node:fs (no conf, no network),
// because every TAB after --profile pays for this run.
import { configDir } from '../../config/paths.js';
import { readProfiles } from '../../config/profiles.js';

export async function listProfileNames(env: NodeJS.ProcessEnv): Promise<string[]> {
  try {
    return Object.keys(readProfiles(configDir(env)).profiles).sort();
  } catch {
    return []; // a damaged config file must not break the user's shell; other commands report it
  }
}
