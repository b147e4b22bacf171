// Redaction for --debug and error messages: what idm prints about requests and responses never
// carries a secret. Two nets: fields known to hold secrets are masked wherever they appear (headers,
// form and JSON bodies), and every secret value idm knows of (client secret in each encoding idm
// sends it, tokens, assertions, keys) is masked anywhere in the text. A token endpoint's answer is
// shown with every string value masked but those of the fields known to hold none (token_type,
// scope, error...: a 403 is debugged with the scopes); any other field may hold a token by another name.
// A body that cannot be masked (JSON nested too deep to walk) is never shown: a placeholder says why.
import { MIN_SECRET_LENGTH } from '../core/secrets.js';
import { MAX_JSON_DEPTH, nestsDeeper } from '../core/json-depth.js';
import { keepExact, parseJsonExact, stringifyJson } from '../core/json-numbers.js';

const SECRET_KEYS = new Set([
  'access_token',
  'id_token',
  'refresh_token',
  'client_secret',
  'client_assertion',
  'password',
  'token',
  'header_value',
  'private_key',
  'secret',
  'authorization',
]);
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** The fields of a token endpoint's answer that hold tokens. */
const TOKEN_KEYS = ['access_token', 'id_token', 'refresh_token'];
/** The fields of a token endpoint's answer (RFC 6749 5.1, 5.2) shown as they are: they hold no secret. */
const TOKEN_ANSWER_SHOWN = new Set(['token_type', 'scope', 'expires_in', 'error', 'error_description', 'error_uri']);
export const REDACTED = '[redacted]';
/**
 * A token field's value in a token endpoint's answer that is not JSON: `access_token=…` (form-encoded),
 * `"access_token": "…` (JSON cut short), `<access_token>…` (XML). Groups: the name, what joins it to the value, the value.
 */
const tokenInText = () => new RegExp(`\\b(${TOKEN_KEYS.join('|')})\\b(["']?\\s*[:=>]\\s*["']?)([^\\s"'&<>,;}]+)`, 'g');

export class Redactor {
  private readonly values = new Set<string>();

  /** Remember a secret value so it is masked wherever it shows up. */
  add(value: string | undefined): void {
    if (value && value.length >= MIN_SECRET_LENGTH) this.values.add(value);
  }

  /**
   * Remembers the secrets a request body carries in the fields known to hold them (a webhook's
   * `token`, `password` or `header_value`): the service may quote one back, in an error message or
   * an answer, and it is masked there as the client secret is.
   */
  addFields(value: unknown): void {
    if (nestsDeeper(value)) return; // never sent: JSON.stringify of the body would have failed first
    const walk = (inner: unknown): void => {
      if (Array.isArray(inner)) inner.forEach(walk);
      else if (inner && typeof inner === 'object') {
        for (const [key, field] of Object.entries(inner)) {
          if (typeof field === 'string' && SECRET_KEYS.has(key.toLowerCase())) this.add(field);
          else walk(field);
        }
      }
    };
    walk(value);
  }

  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(', ') : value;
      if (SECRET_HEADERS.has(name.toLowerCase())) {
        const scheme = /^(Bearer|Basic)\s/i.exec(text)?.[1];
        out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
      } else {
        out[name] = this.text(text);
      }
    }
    return out;
  }

  /** A body as text: JSON and form bodies field by field, then known values anywhere. */
  body(text: string, contentType = ''): string {
    let result = text;
    if (/json/i.test(contentType) || /^\s*[{[]/.test(text)) {
      const parsed = parseJson(text);
      if (parsed !== NOT_JSON) return this.text(masked(parsed.value, redactValue));
      // not JSON after all: the value net below
    } else if (/x-www-form-urlencoded/i.test(contentType)) {
      const form = new URLSearchParams(text);
      for (const key of [...form.keys()]) if (SECRET_KEYS.has(key.toLowerCase())) form.set(key, REDACTED);
      result = form.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED);
    }
    return this.text(result);
  }

  /**
   * Remembers the tokens of a token endpoint's answer (after a prefix such as `)]}',`), before
   * anything of that answer (its headers included) is traced or quoted.
   */
  addTokens(text: string): void {
    const at = text.search(/[{[]/);
    const parsed = at < 0 ? NOT_JSON : parseJson(text.slice(at));
    if (parsed === NOT_JSON) {
      // Not JSON (form-encoded, JSON cut short, XML): a token there is still a token the server issued.
      for (const match of text.matchAll(tokenInText())) {
        this.add(match[3]);
        try {
          this.add(decodeURIComponent(match[3]!.replaceAll('+', ' ')));
        } catch {
          // not valid encoding: masked as it stands
        }
      }
      return;
    }
    if (typeof parsed.value !== 'object' || parsed.value === null) return;
    for (const key of TOKEN_KEYS) {
      const token = (parsed.value as Record<string, unknown>)[key];
      if (typeof token === 'string') this.add(token);
    }
  }

  /**
   * A token endpoint's answer: JSON with every string value masked (the shape stays readable) but the
   * top-level fields that hold no secret (TOKEN_ANSWER_SHOWN); then the value net, for a token quoted in one.
   */
  tokenAnswer(text: string): string {
    const at = text.search(/[{[]/);
    const parsed = at < 0 ? NOT_JSON : parseJson(text.slice(at));
    // Not JSON: each token field's value masked where it stands, then the value net.
    if (parsed === NOT_JSON) return this.text(text.replace(tokenInText(), `$1$2${REDACTED}`));
    return this.text(`${text.slice(0, at)}${masked(parsed.value, maskTokenAnswer)}`);
  }

  /**
   * A request-target (`/oauth/token?client_secret=…`) as received: the values of query parameters
   * known to hold secrets masked (a sloppy client may send its secret there), then known values anywhere.
   */
  target(target: string): string {
    const at = target.indexOf('?');
    if (at < 0) return this.text(target);
    const query = target
      .slice(at + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = eq < 0 ? pair : pair.slice(0, eq);
        let key = name;
        try {
          key = decodeURIComponent(name.replaceAll('+', ' '));
        } catch {
          // not valid encoding: compared as sent
        }
        return eq >= 0 && SECRET_KEYS.has(key.toLowerCase()) ? `${name}=${REDACTED}` : pair;
      })
      .join('&');
    return this.text(`${target.slice(0, at)}?${query}`);
  }

  text(text: string): string {
    let result = text;
    for (const value of this.values) {
      // As is, URL-encoded, and as it stands inside a JSON string (a PEM's newlines become \n there).
      for (const form of new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])) {
        if (result.includes(form)) result = result.split(form).join(REDACTED);
      }
    }
    return result;
  }
}

/** Whether a field of this name holds a secret (a webhook's `token`, `password`, `header_value`...). */
export function isSecretField(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

/**
 * `value` with the values of the fields known to hold secrets masked (the whole value, an object or
 * array included), at any depth, for a record
 * shown to people: the service never returns a webhook's token, password or header value, but an
 * answer that does must not put one on a terminal. `value` itself when it holds none.
 */
export function withoutSecretFields(value: unknown): unknown {
  if (nestsDeeper(value)) return REDACTED; // never walked (the client refuses such answers)
  let found = false;
  const walk = (inner: unknown): unknown => {
    if (Array.isArray(inner)) return inner.map(walk);
    if (!inner || typeof inner !== 'object') return inner;
    // fromEntries, never assignment: a `__proto__` key stays a key.
    return Object.fromEntries(
      Object.entries(inner).map(([key, field]) => {
        // The whole value, whatever its type: `"password": {"value": "…"}` is as secret as a string.
        const secret = isSecretField(key) && field !== null && field !== undefined;
        found ||= secret;
        return [key, secret ? REDACTED : walk(field)];
      }),
    );
  };
  const masked = walk(value);
  return found ? masked : value;
}

const NOT_JSON = Symbol('not JSON');

/** Numbers a double cannot hold and keys of digits keep their text (core/json-numbers.ts): a trace shows the body as it went. */
function parseJson(text: string): { value: unknown } | typeof NOT_JSON {
  try {
    return { value: parseJsonExact(text) }; // JSON.parse does not recurse, nor does the walk: any depth is parsed
  } catch {
    return NOT_JSON;
  }
}

/**
 * `value` as JSON text after `mask`, or a placeholder: a value nested too deep to walk (the walk and
 * JSON.stringify would overflow the stack), or that fails to mask, is never shown as received.
 */
function masked(value: unknown, mask: (value: unknown) => unknown): string {
  if (nestsDeeper(value)) return `[body not shown: JSON nested more than ${MAX_JSON_DEPTH} levels deep]`;
  try {
    return stringifyJson(mask(value)) ?? 'null';
  } catch {
    return '[body not shown: it could not be masked]';
  }
}

/** `copy` of `value`, with the literals and key order parseJsonExact recorded for it. */
function exact<T extends object>(value: object, copy: T): T {
  keepExact(value, copy);
  return copy;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return exact(value, value.map(redactValue));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = SECRET_KEYS.has(key.toLowerCase()) && inner !== null && typeof inner !== 'object' ? REDACTED : redactValue(inner);
    }
    return exact(value, out);
  }
  return value;
}

function maskTokenAnswer(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return maskStrings(value);
  return exact(value, Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, TOKEN_ANSWER_SHOWN.has(key) && (inner === null || typeof inner !== 'object') ? inner : maskStrings(inner)])));
}

function maskStrings(value: unknown): unknown {
  if (typeof value === 'string') return REDACTED;
  if (Array.isArray(value)) return exact(value, value.map(maskStrings));
  if (value && typeof value === 'object') return exact(value, Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskStrings(inner)])));
  return value;
}
