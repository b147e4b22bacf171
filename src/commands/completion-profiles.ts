// Profile names for shell completion: read straight from the config file (no conf, no network),
// because every TAB after --profile pays for this run.
import { configDir, configFile } from '../config/paths.js';
import { readTextIfExists } from '../config/files.js';

export async function listProfileNames(env: NodeJS.ProcessEnv): Promise<string[]> {
  try {
    const text = readTextIfExists(configFile(configDir(env)));
    if (!text) return [];
    const profiles = (JSON.parse(text) as { profiles?: unknown }).profiles;
    return profiles && typeof profiles === 'object' ? Object.keys(profiles).sort() : [];
  } catch {
    return []; // an unreadable config file must not break the user's shell
  }
}
