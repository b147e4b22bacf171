// The platform's official Node SDK (npm `auth0`), unchanged, against idm's sandbox tenant: the child
// process of ./sdk.test.ts. It trusts the sandbox's test CA only through NODE_EXTRA_CA_CERTS (read by
// Node at start, hence a process of its own). Driven by the test through stdin, one JSON line per
// phase: {"phase": name, "args": {...}}; it answers on stdout one JSON line per SDK operation,
// {op, ok, status?, result} or {op, ok: false, error: {name, statusCode, body, message}}, then
// {"done": name}. The test waits for the sandbox's background work between phases.
import { createInterface } from 'node:readline';
import { ManagementClient } from 'auth0';

const { SDK_DOMAIN, SDK_CLIENT_ID, SDK_CLIENT_SECRET, SDK_WEBHOOK_TOKEN } = process.env;
if (!SDK_DOMAIN || !SDK_CLIENT_ID || !SDK_CLIENT_SECRET) {
  process.stderr.write('sdk-client: SDK_DOMAIN, SDK_CLIENT_ID and SDK_CLIENT_SECRET are required\n');
  process.exit(2);
}

// Nothing but what a user of the SDK would give it.
const client = new ManagementClient({ domain: SDK_DOMAIN, clientId: SDK_CLIENT_ID, clientSecret: SDK_CLIENT_SECRET });
const streams = client.eventStreams;
const provisioning = client.connections.directoryProvisioning;

const emit = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** Runs one SDK operation and reports it; `fn` returns {status?, result}. */
async function op(name, fn) {
  try {
    emit({ op: name, ok: true, ...(await fn()) });
  } catch (error) {
    emit({
      op: name,
      ok: false,
      error: {
        name: error?.constructor?.name ?? typeof error,
        statusCode: error?.statusCode,
        body: error?.body,
        // The answer's headers as the SDK's error carries them (names in lower case).
        headers: error?.rawResponse?.headers ? Object.fromEntries(error.rawResponse.headers) : undefined,
        message: String(error?.message ?? error),
        cause: error?.cause ? String(error.cause) : undefined,
      },
    });
  }
}

/** An HttpResponsePromise: its data (null for the void operations) and the HTTP status. */
const single = async (promise) => {
  const { data, rawResponse } = await promise.withRawResponse();
  return { status: rawResponse.status, result: data ?? null };
};

/** A paginated list: the first page's items, the raw page object and whether the SDK sees a next page. */
const firstPage = async (pagePromise) => {
  const page = await pagePromise;
  return { status: page.rawResponse.status, result: { items: page.data, response: page.response, hasNextPage: page.hasNextPage() } };
};

const phases = {
  /** One call, for the control run without the test CA. */
  async probe() {
    await op('eventStreams.list take=1', () => firstPage(streams.list({ take: 1 })));
  },

  async streams({ inboxUrl, closedPortId }) {
    await op('eventStreams.list take=2', () => firstPage(streams.list({ take: 2 })));
    await op('eventStreams.list all pages', async () => {
      const all = [];
      for await (const stream of await streams.list({ take: 2 })) all.push(stream);
      return { result: all };
    });
    let createdId;
    await op('eventStreams.create', async () => {
      const out = await single(
        // The SDK's type of a webhook authorization has no secret field (it is the response shape):
        // the interface's `token` goes through as sent.
        streams.create({
          name: 'sdk-webhook',
          subscriptions: [{ event_type: 'user.created' }],
          destination: {
            type: 'webhook',
            configuration: { webhook_endpoint: `${inboxUrl}/sdk`, webhook_authorization: { method: 'bearer', token: SDK_WEBHOOK_TOKEN } },
          },
        }),
      );
      createdId = out.result?.id;
      return out;
    });
    await op('eventStreams.get created', () => single(streams.get(createdId)));
    await op('eventStreams.update', () =>
      single(streams.update(createdId, { name: 'sdk-webhook-renamed', subscriptions: [{ event_type: 'user.created' }, { event_type: 'user.updated' }] })),
    );
    await op('eventStreams.get updated', () => single(streams.get(createdId)));
    await op('eventStreams.test created', () => single(streams.test(createdId, { event_type: 'user.created', data: { object: { user_id: 'sdk|42' } } })));
    await op('eventStreams.test closed port', () => single(streams.test(closedPortId, { event_type: 'user.created' })));
    emit({ created: createdId });
  },

  async deliveries({ closedPortId, failedId, createdId }) {
    await op('eventStreams.deliveries.list', () => firstPage(streams.deliveries.list(closedPortId)));
    await op('eventStreams.deliveries.list filtered', () =>
      firstPage(streams.deliveries.list(closedPortId, { statuses: 'failed', event_types: 'user.created', take: 10 })),
    );
    await op('eventStreams.deliveries.getHistory', () => single(streams.deliveries.getHistory(closedPortId, failedId)));
    await op('eventStreams.redeliveries.createById', () => single(streams.redeliveries.createById(closedPortId, failedId)));
    await op('eventStreams.delete', () => single(streams.delete(createdId)));
    await op('eventStreams.get deleted', () => single(streams.get(createdId)));
  },

  async redeliver({ closedPortId }) {
    // The SDK has no method for the statistics: its passthrough fetch (the SDK's token, base URL, retries),
    // read while nothing is being delivered.
    await op('client.fetch stats', async () => {
      const res = await client.fetch(`/event-streams/${closedPortId}/stats`);
      return { status: res.status, result: await res.json() };
    });
    await op('eventStreams.redeliveries.create', () =>
      single(streams.redeliveries.create(closedPortId, { statuses: ['failed'], event_types: ['user.created'] })),
    );
  },

  async provisioning({ connectionId, configuredId, groups }) {
    await op('connections.list', () => firstPage(client.connections.list()));
    // Mapping entries as the interface names them (`platform`, not the SDK's type's name).
    await op('directoryProvisioning.create', () =>
      single(
        provisioning.create(connectionId, {
          mapping: [
            { platform: 'email', idp: 'primaryEmail' },
            { platform: 'app_metadata.external_id', idp: 'id' },
          ],
          synchronize_automatically: true,
          synchronize_groups: 'selected',
        }),
      ),
    );
    await op('directoryProvisioning.get', () => single(provisioning.get(connectionId)));
    // Shown once the connection has a configuration (404 before, wire-facts.md), as recorded: after the create.
    await op('directoryProvisioning.getDefaultMapping', () => single(provisioning.getDefaultMapping(connectionId)));
    await op('directoryProvisioning.update', () => single(provisioning.update(connectionId, { synchronize_automatically: false, synchronize_groups: 'all' })));
    await op('directoryProvisioning.list', () => firstPage(provisioning.list()));
    await op('directoryProvisioning.synchronizations.create', () => single(provisioning.synchronizations.create(connectionId)));
    await op('directoryProvisioning.listSynchronizedGroups before', () => firstPage(provisioning.listSynchronizedGroups(configuredId)));
    await op('directoryProvisioning.set', () => single(provisioning.set(configuredId, { groups: [{ id: groups.sales }, { id: groups.support, name: 'Support' }] })));
    await op('directoryProvisioning.addSynchronizedGroupSelections', () =>
      single(provisioning.addSynchronizedGroupSelections(configuredId, { groups: [{ id: groups.everyone }] })),
    );
    await op('directoryProvisioning.deleteSynchronizedGroupSelections', () =>
      single(provisioning.deleteSynchronizedGroupSelections(configuredId, { groups: [{ id: groups.sales }] })),
    );
    await op('directoryProvisioning.listSynchronizedGroups after', () => firstPage(provisioning.listSynchronizedGroups(configuredId)));
    await op('directoryProvisioning.listSynchronizedGroups q', () => firstPage(provisioning.listSynchronizedGroups(configuredId, { q: 'name:sup*' })));
  },

  /**
   * The SDK's other client authentication: a private-key JWT (private_key_jwt) it signs itself with
   * `clientAssertionSigningKey` and `clientAssertionSigningAlg`, then one call with the token it got.
   */
  async assertion({ privateKeyPem, alg }) {
    const signed = new ManagementClient({ domain: SDK_DOMAIN, clientId: SDK_CLIENT_ID, clientAssertionSigningKey: privateKeyPem, clientAssertionSigningAlg: alg });
    await op(`eventStreams.list ${alg}`, () => firstPage(signed.eventStreams.list({ take: 1 })));
  },

  /**
   * The error answers the SDK turns into its typed errors (ManagementError and subclasses: statusCode,
   * body, rawResponse.headers): 400, 401, 403, 404, 409; none retried (`maxRetries: 0`).
   */
  async errors({ reader, configuredId, closedPortId, takenName }) {
    const once = new ManagementClient({ domain: SDK_DOMAIN, clientId: SDK_CLIENT_ID, clientSecret: SDK_CLIENT_SECRET, maxRetries: 0 });
    await op('400 malformed id', () => single(once.eventStreams.get('est_short')));
    await op('400 body', () => single(once.eventStreams.create({ name: 'no-destination' })));
    await op('404 unknown stream', () => single(once.eventStreams.get('est_0000000000000000000000')));
    await op('409 stream name', () =>
      single(once.eventStreams.create({ name: takenName, subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'act_sdk' } } })),
    );
    await op('409 provisioning', () => single(once.connections.directoryProvisioning.create(configuredId, {})));
    const readOnly = new ManagementClient({ domain: SDK_DOMAIN, clientId: reader.clientId, clientSecret: reader.clientSecret, maxRetries: 0 });
    await op('403 scope', () => single(readOnly.eventStreams.test(closedPortId, { event_type: 'user.created' })));
    const stranger = new ManagementClient({ domain: SDK_DOMAIN, token: 'not.a.token', maxRetries: 0 });
    await op('401 token', () => firstPage(stranger.eventStreams.list({ take: 1 })));
  },

  /** Test events of two more types to a stream whose deliveries fail. */
  async 'more-tests'({ closedPortId }) {
    await op('test user.updated', () => single(streams.test(closedPortId, { event_type: 'user.updated' })));
    await op('test user.deleted', () => single(streams.test(closedPortId, { event_type: 'user.deleted' })));
  },

  /** Every failed delivery of a stream, a page of one at a time through the SDK's own pagination. */
  async 'deliveries-paged'({ closedPortId }) {
    await op('deliveries.list take=1 all pages', async () => {
      const all = [];
      for await (const delivery of await streams.deliveries.list(closedPortId, { take: 1 })) all.push(delivery);
      return { result: all };
    });
  },

  /** Lists until the tenant's bucket is empty: the 429 the SDK reports when it does not retry. */
  async 'rate-limit'({ calls }) {
    const once = new ManagementClient({ domain: SDK_DOMAIN, clientId: SDK_CLIENT_ID, clientSecret: SDK_CLIENT_SECRET, maxRetries: 0 });
    for (let call = 1; call <= calls; call++) {
      await op(`list ${call}`, async () => {
        const page = await once.eventStreams.list({ take: 1 });
        return { status: page.rawResponse.status, result: { remaining: page.rawResponse.headers.get('x-ratelimit-remaining'), limit: page.rawResponse.headers.get('x-ratelimit-limit') } };
      });
    }
    // New clients, each asking the token endpoint (a bucket of its own) for a token, until it refuses.
    for (let call = 1; call <= calls; call++) {
      const fresh = new ManagementClient({ domain: SDK_DOMAIN, clientId: SDK_CLIENT_ID, clientSecret: SDK_CLIENT_SECRET, maxRetries: 0 });
      await op(`token ${call}`, () => firstPage(fresh.eventStreams.list({ take: 1 })));
    }
  },

  async 'provisioning-end'({ connectionId }) {
    await op('directoryProvisioning.get synchronized', () => single(provisioning.get(connectionId)));
    await op('directoryProvisioning.delete', () => single(provisioning.delete(connectionId)));
    await op('directoryProvisioning.get deleted', () => single(provisioning.get(connectionId)));
  },
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const { phase, args } = JSON.parse(line);
  if (phase === 'exit') break;
  const run = phases[phase];
  if (!run) emit({ op: phase, ok: false, error: { name: 'UnknownPhase', message: `no phase ${phase}` } });
  else await run(args ?? {});
  emit({ done: phase });
}
process.exit(0);
