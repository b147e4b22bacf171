// The directory-provisioning operations of the management interface (../shared/spec/wire-facts.md):
// one method each, knowing its path, scope, success status and how to read the answer tolerantly.
import { ApiError } from '../../core/errors.js';
import { isPlainObject, shellCommand, type CommandLine } from '../../core/text.js';
import { asText } from '../../output/index.js';
import { LIMITS, PROVISIONING_STRATEGIES, SCOPES } from '../../schemas/constants.js';
import type { ApiClient, Operation } from '../client.js';
import { isForbidden, isNotFound } from '../errors.js';
import { pageRequestHint, paginate, readPage, type Page, type PageAsk } from '../paginate.js';
import { apiPath, param } from '../path.js';
import { requestRecord, unlessForbidden, type ApiRecord } from './records.js';

export interface MappingRow {
  platform: string;
  idp: string;
}

/** The body of a create or change: every field optional (the service fills in the rest). */
export interface ProvisioningBody {
  mapping?: MappingRow[];
  synchronize_automatically?: boolean;
  synchronize_groups?: string;
}

/** The scope of each operation (wire-facts.md): a 403 names it, and so do commands that explain what a token lacks. */
const SCOPE = {
  read: SCOPES.readProvisioning,
  create: SCOPES.createProvisioning,
  update: SCOPES.updateProvisioning,
  delete: SCOPES.deleteProvisioning,
  synchronize: SCOPES.createProvisioning,
} as const;

const provisioningPath = (connectionId: string) => apiPath`/connections/${param(connectionId, 'connection id')}/directory-provisioning`;

/**
 * A 404 that says the connection itself does not exist (errorCode `inexistent_connection`, as the
 * service answers a create for an unknown id). Any other 404 of these paths ("Directory provisioning
 * configuration not found", without a code) means the connection has no configuration.
 */
export function isUnknownConnection(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.code === 'inexistent_connection';
}

/**
 * A 403 about the tenant, not the token (wire-facts.md): "The inbound directory provisioning feature
 * is not enabled for this tenant", "Group synchronization is not enabled for this tenant". No scope
 * grants it, so the hint that names one (api/errors.ts) would send the user the wrong way.
 */
export function isFeatureDisabled(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403 && error.code !== 'insufficient_scope' && /\bnot enabled for this tenant\b/i.test(error.serverMessage ?? '');
}

/**
 * What to do about a feature the tenant does not have: the operator enables it, and group
 * synchronization can stay off meanwhile (`groupsOff`: how, for the command that met it; a command
 * line to run where there is a configuration to change, as `--sync-groups off` is no flag of every command).
 */
function featureHint(error: ApiError, groupsOff = 'with --sync-groups off'): string {
  const groups = /\bgroup synchronization\b/i.test(error.serverMessage ?? '');
  const what = groups ? 'Group synchronization' : 'Directory provisioning';
  return `${what} is enabled per tenant by the service, not by a scope: ask the service's support to enable it for this tenant.${groups ? ` Meanwhile users can still be synchronized with group synchronization off (${groupsOff}).` : ''}`;
}

/** A feature-disabled 403 gets its own hint, and names no scope (details.scope would say one is missing). */
function explainFeature(error: unknown, groupsOff?: string): void {
  if (!isFeatureDisabled(error)) return;
  error.hint = featureHint(error, groupsOff);
  delete error.details.scope;
}

/** A 400 that says the connection's strategy cannot have directory provisioning (create, default mapping). */
function isUnsupportedStrategy(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400 && /\bdoes not support inbound directory provisioning\b/i.test(error.serverMessage ?? '');
}

/** What to do about a connection whose strategy cannot have directory provisioning: which can, and where to see them. */
export function unsupportedStrategyHint(command: CommandLine): string {
  return `Strategies that support it: ${PROVISIONING_STRATEGIES.join(', ')} ('${command(['idm', 'connections', 'list'])}' shows each connection's strategy).`;
}

/** What to do about a connection id the tenant does not know. */
export function unknownConnectionHint(command: CommandLine): string {
  return `Check the id ('${command(['idm', 'connections', 'list'])}' shows the tenant's connections).`;
}

/**
 * What to do about a 404, by its error code: check the id, or set provisioning up first (`unconfigured`:
 * the words for the latter, when the operation has its own).
 */
function notFoundHint(error: unknown, connectionId: string, command: CommandLine, unconfigured?: string): void {
  if (!(error instanceof ApiError && error.status === 404)) return;
  error.hint = isUnknownConnection(error)
    ? unknownConnectionHint(command)
    : (unconfigured ?? unconfiguredHint(connectionId, command));
}

/**
 * A connection without a configuration: create sets one up only where its strategy supports it
 * (400 otherwise), and the 404 does not say the strategy, so the hint says where to see it.
 */
function unconfiguredHint(connectionId: string, command: CommandLine): string {
  const supported = PROVISIONING_STRATEGIES.join(', ');
  return `It has no directory provisioning yet. If its strategy supports it (${supported}; '${command(['idm', 'connections', 'list'])}' shows each connection's strategy), set it up with '${command(['idm', 'provisioning', 'create', connectionId])}'.`;
}

/** The rows of a mapping answer that are rows (a string on both sides); anything else is left out. */
export function mappingRows(value: unknown): MappingRow[] {
  return (Array.isArray(value) ? value : []).flatMap((row) =>
    isPlainObject(row) && typeof row.platform === 'string' && typeof row.idp === 'string' ? [{ platform: row.platform, idp: row.idp }] : [],
  );
}

/** Whether an existing configuration holds what `sent` asked for (unsent settings: the service's defaults). */
export function holdsSettings(existing: ApiRecord, sent: ProvisioningBody): boolean {
  const pairs = (rows: MappingRow[]) => JSON.stringify(rows.map((row) => [row.platform, row.idp]).sort());
  if (sent.mapping !== undefined && pairs(mappingRows(existing.mapping)) !== pairs(sent.mapping)) return false;
  if ((existing.synchronize_automatically ?? false) !== (sent.synchronize_automatically ?? false)) return false;
  return (existing.synchronize_groups ?? 'off') === (sent.synchronize_groups ?? 'off');
}

export interface GroupsQuery {
  /** Groups whose name starts with this (sent as `q=name:<prefix>*`). */
  search?: string;
  from?: string;
  take?: number;
}

/** A synchronized group as sent: its id, and what else the directory says of it. */
export interface GroupEntry {
  id: string;
  name?: string;
  email?: string;
  direct_members_count?: number;
}

/**
 * What a connection is, for setting up its directory provisioning (`checkConnection`):
 * - `unknown`: the tenant has no such connection;
 * - `configured`: it has a configuration already (`existing`);
 * - `unsupported`: its strategy cannot have one (`said`: the service's words, when it gave some);
 * - `unconfigured`: it can have one, starting from `defaultMapping`; without one, `because` says why:
 *   the token cannot read it (`forbidden`), or the service shows none before a configuration exists.
 */
export type ConnectionCheck =
  | { kind: 'unknown' }
  | { kind: 'configured'; existing: ApiRecord }
  | { kind: 'unsupported'; said: string | undefined }
  | { kind: 'unconfigured'; defaultMapping: MappingRow[] }
  | { kind: 'unconfigured'; defaultMapping: undefined; because: 'forbidden' | 'not-shown' };

/** `command` makes the command lines its hints name (Deps.command: with the run's --profile). */
export function provisioningApi(client: ApiClient, command: CommandLine = shellCommand) {
  /**
   * `run`, with the hint of a 404 chosen by its error code. `creating`: there is no configuration to
   * change yet, so group synchronization is turned off by the flag of the same command.
   */
  const explained = async <T>(connectionId: string, run: () => Promise<T>, unconfigured?: string, creating = false): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      notFoundHint(error, connectionId, command, unconfigured);
      explainFeature(error, creating ? undefined : `'${command(['idm', 'provisioning', 'update', connectionId, '--sync-groups', 'off'])}'`);
      if (isUnsupportedStrategy(error)) error.hint = unsupportedStrategyHint(command);
      throw error;
    }
  };
  // Every operation on one connection: a 404's hint depends on its error code (notFoundHint).
  const request = (connectionId: string, operation: Operation) => explained(connectionId, () => client.request(operation));
  const record = (connectionId: string, operation: Operation, what: string, creating = false) => explained(connectionId, () => requestRecord(client, operation, what), undefined, creating);

  /** `unconfigured`: the hint of a 404 without inexistent_connection, when the operation has its own (delete's). */
  const get = (connectionId: string, unconfigured?: string, forbiddenIsAnswer?: boolean): Promise<ApiRecord> =>
    explained(
      connectionId,
      () =>
        requestRecord(
          client,
          {
            method: 'GET',
            path: provisioningPath(connectionId),
            action: `read the directory provisioning of connection ${connectionId}`,
            scope: SCOPE.read,
            success: 200,
            ...(forbiddenIsAnswer ? { forbiddenIsAnswer } : {}),
          },
          'a provisioning configuration',
        ),
      unconfigured,
    );
  // Nothing to delete is no cue to set it up (the hint of the other operations' 404).
  const nothingToDelete = `It has no directory provisioning: deleted already, or never set up ('${command(['idm', 'provisioning', 'list'])}' lists the connections that have it). In a script that may run again, --ignore-not-found takes that as done.`;

  /** `forbiddenIsAnswer`: the caller goes on without the list (see Operation). */
  const list = async (query: { from?: string; take?: number }, ask?: PageAsk & Pick<Operation, 'forbiddenIsAnswer'>): Promise<Page> => {
    const operation: Operation = {
      method: 'GET',
      path: '/connections-directory-provisionings',
      query: { from: query.from, take: query.take },
      action: 'list directory provisioning configurations',
      scope: SCOPE.read,
      success: 200,
      hints: { 400: pageRequestHint(query) },
      ...ask,
    };
    let answer;
    try {
      answer = await client.request(operation);
    } catch (error) {
      explainFeature(error);
      throw error;
    }
    return readPage(client, operation, answer.status, answer.body, 'directory_provisionings', { maxItems: query.take ?? LIMITS.takeMax });
  };

  /** `forbiddenIsAnswer`: the caller goes on without the list (see Operation). */
  const groups = async (connectionId: string, query: GroupsQuery, ask?: PageAsk & Pick<Operation, 'forbiddenIsAnswer'>): Promise<Page> => {
    const operation: Operation = {
      method: 'GET',
      path: `${provisioningPath(connectionId)}/synchronized-groups`,
      query: { q: query.search === undefined ? undefined : `name:${query.search}*`, from: query.from, take: query.take },
      action: `list the synchronized groups of connection ${connectionId}`,
      scope: SCOPE.read,
      success: 200,
      hints: { 400: pageRequestHint(query, [query.search !== undefined && '--search']) },
      ...ask,
    };
    const { status, body } = await request(connectionId, operation);
    return readPage(client, operation, status, body, 'groups', { maxItems: query.take ?? LIMITS.takeMax });
  };

  const changeGroups = (method: 'PUT' | 'POST' | 'DELETE', verb: string) => async (connectionId: string, entries: GroupEntry[]): Promise<void> => {
    await request(connectionId, {
      method,
      path: `${provisioningPath(connectionId)}/synchronized-groups`,
      body: { groups: entries },
      action: `${verb} the synchronized groups of connection ${connectionId}`,
      scope: SCOPE.update,
      success: 204,
      // A 400 names what it refused: an id, or a field of a --groups-file entry (the recorded one: an email).
      hints: { 400: `Check the groups sent (their ids, and the fields of --groups-file entries), as the message says ('${command(['idm', 'provisioning', 'groups', 'list', connectionId])}' shows the synchronized ones).` },
      unanswered: `The groups may have been changed all the same: check with '${command(['idm', 'provisioning', 'groups', 'list', connectionId])}' before running this again.`,
    });
  };

  const pages = (query: { from?: string; take?: number }, forbiddenIsAnswer = false) =>
    paginate((from, ask) => list({ ...query, from }, forbiddenIsAnswer ? { ...ask, forbiddenIsAnswer } : ask), query.from, 'list every directory provisioning configuration');

  /**
   * The strategy's default mapping: `{mapping: [...]}`, as received, and its rows. The service shows
   * it only once the connection has a configuration (404 before, wire-facts.md).
   */
  const defaultMapping = async (connectionId: string, forbiddenIsAnswer = false): Promise<{ raw: ApiRecord; rows: MappingRow[] }> => {
    const create = command(['idm', 'provisioning', 'create', connectionId]);
    const raw = await explained(
      connectionId,
      () =>
        requestRecord(
          client,
          {
            method: 'GET',
            path: `${provisioningPath(connectionId)}/default-mapping`,
            action: `read the default mapping of connection ${connectionId}`,
            scope: SCOPE.read,
            success: 200,
            ...(forbiddenIsAnswer ? { forbiddenIsAnswer } : {}),
          },
          'a default mapping',
        ),
      `It has no directory provisioning yet, and the service shows the default mapping only once it has: '${create}' sets it up with the strategy's default mapping (no mapping flag), and '${command(['idm', 'provisioning', 'show', connectionId])}' then prints it.`,
    );
    return { raw, rows: mappingRows(raw.mapping) };
  };

  return {
    /** The scope each operation needs. */
    scopes: SCOPE,

    get: (connectionId: string) => get(connectionId),
    /** get, for a note that is left out without it: undefined on a 403, which keeps the cached token (as streams.getIfReadable). */
    getIfReadable: (connectionId: string): Promise<ApiRecord | undefined> => unlessForbidden(get(connectionId, undefined, true)),
    /**
     * get, before a delete, only to show what goes: its 404 says there is nothing to delete, and a 403
     * (a client that may delete but not read it) is undefined, keeping the cached token as
     * streams.getIfReadable does. A tenant without the feature is thrown: the delete would meet it too.
     */
    getToDelete: (connectionId: string): Promise<ApiRecord | undefined> => unlessForbidden(get(connectionId, nothingToDelete, true), isFeatureDisabled),

    /** One page of every connection's configuration. */
    list,
    pages: (query: { from?: string; take?: number }) => pages(query),

    /**
     * The ids of the connections that have a configuration (every page); undefined when the token cannot
     * read the list (403), which keeps the cached token (as streams.getIfReadable). A tenant without the
     * feature (isFeatureDisabled) is no token's fault: that 403 is thrown, for the caller to say so.
     */
    configuredConnections: (): Promise<Set<string> | undefined> =>
      unlessForbidden(
        (async () => {
          const ids = new Set<string>();
          for await (const page of pages({}, true)) for (const item of page.items as ApiRecord[]) ids.add(asText(item?.connection_id));
          return ids;
        })(),
        isFeatureDisabled,
      ),

    /**
     * A connection checked before setting it up, by one GET of its configuration: there is one already
     * (200), the connection is unknown (404 with errorCode inexistent_connection), or it has none (any
     * other 404, or a 403: what create needs). Then the GET of the default mapping, the starting point:
     * 400 for a strategy without directory provisioning. Its 404 without that code (the service shows the
     * default only once a configuration exists, so this is the usual answer) or 403 only means there is no default to start from.
     * Neither 403 drops the cached token (as streams.getIfReadable): the create that follows is sent with it.
     */
    checkConnection: async (connectionId: string): Promise<ConnectionCheck> => {
      try {
        return { kind: 'configured', existing: await get(connectionId, undefined, true) };
      } catch (error) {
        if (isUnknownConnection(error)) return { kind: 'unknown' };
        if (isFeatureDisabled(error) || !(isNotFound(error) || isForbidden(error))) throw error;
      }
      try {
        return { kind: 'unconfigured', defaultMapping: (await defaultMapping(connectionId, true)).rows };
      } catch (error) {
        if (isUnknownConnection(error)) return { kind: 'unknown' };
        if (error instanceof ApiError && error.status === 400) return { kind: 'unsupported', said: error.serverMessage };
        if (isFeatureDisabled(error)) throw error;
        if (isForbidden(error)) return { kind: 'unconfigured', defaultMapping: undefined, because: 'forbidden' };
        if (isNotFound(error)) return { kind: 'unconfigured', defaultMapping: undefined, because: 'not-shown' };
        throw error;
      }
    },

    /** 200 with the whole configuration; `mapping`, when sent, replaces the whole mapping. */
    update: (connectionId: string, body: ProvisioningBody): Promise<ApiRecord> =>
      record(
        connectionId,
        {
          method: 'PATCH',
          path: provisioningPath(connectionId),
          body,
          action: `change the directory provisioning of connection ${connectionId}`,
          scope: SCOPE.update,
          success: 200,
          unanswered: `The change may have been made all the same: check with '${command(['idm', 'provisioning', 'show', connectionId])}' before running this again.`,
        },
        'a provisioning configuration',
      ),

    /**
     * 204. A DELETE is sent again after a lost answer (a timeout, a 5xx: api/retry.ts), and a repeat
     * may be answered 404 "configuration not found" (the sandbox does; the service's answer to a
     * repeat is not recorded, and a 204, as for streams, needs nothing): after more than one attempt
     * that 404 means an earlier attempt deleted it, and it is the success (`lostAnswer`).
     */
    delete: async (connectionId: string): Promise<{ lostAnswer: boolean }> => {
      try {
        await explained(
          connectionId,
          () =>
            client.request({
              method: 'DELETE',
              path: provisioningPath(connectionId),
              action: `delete the directory provisioning of connection ${connectionId}`,
              scope: SCOPE.delete,
              success: 204,
            }),
          nothingToDelete,
        );
      } catch (error) {
        if (isNotFound(error) && !isUnknownConnection(error) && error.attempts > 1) return { lostAnswer: true };
        throw error;
      }
      return { lostAnswer: false };
    },

    /**
     * Asks for a synchronization now: 201 `{connection_id, synchronization_id, status}`. The refusal
     * when the last one was less than 30 minutes ago is an ApiError that isSyncTooSoon (../errors.ts)
     * recognises; a 409 (one is running) says so.
     */
    synchronize: (connectionId: string): Promise<ApiRecord> =>
      record(
        connectionId,
        {
          method: 'POST',
          path: `${provisioningPath(connectionId)}/synchronizations`,
          action: `synchronize connection ${connectionId}`,
          scope: SCOPE.synchronize,
          success: 201,
          hints: { 409: `Wait for it to finish: '${command(['idm', 'provisioning', 'show', connectionId])}' shows the last synchronization.` },
          unanswered: `A synchronization may have started all the same: check with '${command(['idm', 'provisioning', 'show', connectionId])}' (the last synchronization) before asking again.`,
        },
        'a synchronization',
      ),

    /** One page of the groups synchronized when `synchronize_groups` is `selected`. */
    groups,
    groupPages: (connectionId: string, query: GroupsQuery) => paginate((from, ask) => groups(connectionId, { ...query, from }, ask), query.from, `list every synchronized group of connection ${connectionId}`),
    /**
     * Every synchronized group of the connection (every page), or undefined when the token may not read
     * them (403), for a change that goes on without them; that 403 keeps the cached token (as
     * streams.getIfReadable). A tenant without the feature (isFeatureDisabled) is thrown.
     */
    groupsIfReadable: (connectionId: string): Promise<unknown[] | undefined> =>
      unlessForbidden(
        (async () => {
          const items: unknown[] = [];
          const all = paginate((from, ask) => groups(connectionId, { from }, { ...ask, forbiddenIsAnswer: true }), undefined, `list every synchronized group of connection ${connectionId}`);
          for await (const page of all) items.push(...page.items);
          return items;
        })(),
        isFeatureDisabled,
      ),
    /** Replaces the list (PUT), adds to it (POST), removes from it (DELETE): 204 each. */
    setGroups: changeGroups('PUT', 'set'),
    addGroups: changeGroups('POST', 'add to'),
    removeGroups: changeGroups('DELETE', 'remove from'),

    /**
     * Creates the configuration (201). A 409 to a POST that idm had to send again may be its own first
     * attempt, answered with an error after the service had created it: if what exists is what was
     * sent, that is the success (api/retry.ts exchange).
     */
    create: (connectionId: string, body: ProvisioningBody): Promise<ApiRecord> =>
      record(
        connectionId,
        {
          method: 'POST',
          path: provisioningPath(connectionId),
          body,
          action: `create directory provisioning for connection ${connectionId}`,
          scope: SCOPE.create,
          success: 201,
          hints: {
            409: `Provisioning already exists on ${connectionId}: see it with '${command(['idm', 'provisioning', 'show', connectionId])}', change it with '${command(['idm', 'provisioning', 'update', connectionId])}'.`,
          },
          unanswered: `Provisioning may have been created on ${connectionId} all the same: check with '${command(['idm', 'provisioning', 'show', connectionId])}' before running this again.`,
          readBack: async () => {
            const existing = await get(connectionId);
            return holdsSettings(existing, body) ? existing : undefined;
          },
        },
        'a provisioning configuration',
        true,
      ),

    defaultMapping: (connectionId: string) => defaultMapping(connectionId),
  };
}

export type ProvisioningApi = ReturnType<typeof provisioningApi>;
