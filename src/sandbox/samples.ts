// Data the sandbox serves that the real service derives from elsewhere: the default attribute mapping
// of the strategies that support directory provisioning, and sample `data` for test events. Both are
// taken from the real service's recorded answers (../shared/reference/recorded-responses.json).
import type { MappingEntry } from '../schemas/index.js';

const GOOGLE_APPS_DEFAULT_MAPPING: MappingEntry[] = [
  { platform: 'app_metadata.external_id', idp: 'id' },
  { platform: 'email', idp: 'primaryEmail' },
  { platform: 'primaryEmail', idp: 'primaryEmail' },
  { platform: 'name', idp: 'name.fullName' },
  { platform: 'given_name', idp: 'name.givenName' },
  { platform: 'family_name', idp: 'name.familyName' },
  { platform: 'isAdmin', idp: 'isAdmin' },
  { platform: 'is_admin', idp: 'isAdmin' },
  { platform: 'isDelegatedAdmin', idp: 'isDelegatedAdmin' },
  { platform: 'agreedToTerms', idp: 'agreedToTerms' },
  { platform: 'tou_accepted', idp: 'agreedToTerms' },
  { platform: 'suspended', idp: 'suspended' },
  { platform: 'is_suspended', idp: 'suspended' },
  { platform: 'blocked', idp: 'suspended' },
  { platform: 'suspensionReason', idp: 'suspensionReason' },
  { platform: 'archived', idp: 'archived' },
  { platform: 'ipWhitelisted', idp: 'ipWhitelisted' },
  { platform: 'is_ipWhitelisted', idp: 'ipWhitelisted' },
  { platform: 'kind', idp: 'kind' },
  { platform: 'etag', idp: 'etag' },
  { platform: 'customerId', idp: 'customerId' },
  { platform: 'orgUnitPath', idp: 'orgUnitPath' },
  { platform: 'emails', idp: 'emails' },
  { platform: 'phones', idp: 'phones' },
  { platform: 'externalIds', idp: 'externalIds' },
  { platform: 'aliases', idp: 'aliases' },
  { platform: 'addresses', idp: 'addresses' },
  { platform: 'organizations', idp: 'organizations' },
  { platform: 'nonEditableAliases', idp: 'nonEditableAliases' },
  { platform: 'relations', idp: 'relations' },
  { platform: 'languages', idp: 'languages' },
  { platform: 'posixAccounts', idp: 'posixAccounts' },
  { platform: 'notes', idp: 'notes' },
  { platform: 'websites', idp: 'websites' },
  { platform: 'locations', idp: 'locations' },
  { platform: 'keywords', idp: 'keywords' },
  { platform: 'gender', idp: 'gender' },
  { platform: 'ims', idp: 'ims' },
  { platform: 'creationTime', idp: 'creationTime' },
  { platform: 'lastLoginTime', idp: 'lastLoginTime' },
  { platform: 'changePasswordAtNextLogin', idp: 'changePasswordAtNextLogin' },
  { platform: 'isMailboxSetup', idp: 'isMailboxSetup' },
  { platform: 'includeInGlobalAddressList', idp: 'includeInGlobalAddressList' },
  { platform: 'thumbnailPhotoUrl', idp: 'thumbnailPhotoUrl' },
  { platform: 'thumbnailPhotoEtag', idp: 'thumbnailPhotoEtag' },
  { platform: 'isEnrolledIn2Sv', idp: 'isEnrolledIn2Sv' },
  { platform: 'isEnforcedIn2Sv', idp: 'isEnforcedIn2Sv' },
  { platform: 'recoveryEmail', idp: 'recoveryEmail' },
  { platform: 'recoveryPhone', idp: 'recoveryPhone' },
  { platform: 'sshPublicKeys', idp: 'sshPublicKeys' },
  { platform: 'customSchemas', idp: 'customSchemas' },
];

/** Strategies that support inbound directory provisioning, with their default mapping. */
export const PROVISIONING_STRATEGIES: Readonly<Record<string, readonly MappingEntry[]>> = {
  'google-apps': GOOGLE_APPS_DEFAULT_MAPPING,
};

export function defaultMapping(strategy: string): MappingEntry[] | undefined {
  const mapping = Object.hasOwn(PROVISIONING_STRATEGIES, strategy) ? PROVISIONING_STRATEGIES[strategy] : undefined;
  return mapping?.map((entry) => ({ ...entry }));
}

/** The user of the real service's test events. */
const SAMPLE_USER = {
  "user_id": "platform|507f1f77bcf86cd799439020",
  "email": "john.doe@gmail.com",
  "email_verified": false,
  "username": "johndoe",
  "phone_number": "+15555555555",
  "phone_verified": false,
  "created_at": "2025-02-01T12:34:56Z",
  "updated_at": "2025-02-01T12:34:56Z",
  "identities": [
    {
      "provider": "platform",
      "isSocial": false,
      "connection": "Username-Password-Authentication",
      "user_id": "507f1f77bcf86cd799439020",
      "profileData": {
        "email": "john.doe@gmail.com",
        "email_verified": false,
        "name": "John Doe",
        "username": "johndoe",
        "given_name": "John",
        "family_name": "Doe",
        "phone_number": "+15555555555",
        "phone_verified": false
      }
    }
  ],
  "app_metadata": {
    "plan": "pro"
  },
  "user_metadata": {
    "hobby": "skydiving"
  },
  "picture": "https://secure.gravatar.com/avatar/15626c5e0c749cb912f9d1ad48dba440?s=480&r=pg&d=https%3A%2F%2Fssl.gstatic.com%2Fs2%2Fprofiles%2Fimages%2Fsilhouette80.png",
  "name": "John Doe",
  "nickname": "John Doe",
  "multifactor": [
    "sample"
  ],
  "last_ip": "10.0.0.1",
  "last_login": "2025-02-01T12:34:56Z",
  "logins_count": 42,
  "blocked": false,
  "given_name": "John",
  "family_name": "Doe"
};

const SAMPLE_ORGANIZATION = { id: 'org_sandboxDemoOrg01', name: 'sandbox-demo', display_name: 'Sandbox Demo' };
const SAMPLE_GROUP = { id: 'grp_sandboxDemoGroup1', name: 'sandbox-demo-group', description: 'A group of the sandbox' };

/**
 * `data` of a test event sent without one: `{object: ...}` as in the real service's recordings, with
 * the resource the event type names (user, organization or group).
 */
export function sampleEventData(eventType: string): Record<string, unknown> {
  if (eventType.startsWith('user.')) return { object: structuredClone(SAMPLE_USER) };
  if (eventType.startsWith('organization.')) return { object: { ...SAMPLE_ORGANIZATION } };
  return { object: { ...SAMPLE_GROUP } };
}
