import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, request } from 'undici';

/** An attempt succeeds on a 2xx answer within this long; anything slower fails it. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** At most this much of an answer is read (to quote it in LastError). */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** What one attempt came to: the answer's status and start, or why there was none. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * The IPv4 address an IPv6 one carries, for the forms that hand traffic to that IPv4 address: IPv4-
 * compatible `::a.b.c.d`, mapped `::ffff:a.b.c.d`, translated `::ffff:0:a.b.c.d` (RFC 6145), NAT64
 * `64:ff9b::a.b.c.d` (RFC 6052) and 6to4 `2002:AABB:CCDD::/48` (RFC 3056). Null for any other address.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zero = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zero(0, 5) && (p[5] === 0 || p[5] === 0xffff)) return v4(p[6], p[7]);
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return v4(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return v4(p[6], p[7]);
  if (p[0] === 0x2002) return v4(p[1], p[2]);
  return null;
}

/**
 * Whether an address is a public unicast one. Loopback, private, link-local, unique-local, multicast,
 * unspecified, carrier-grade NAT, documentation and other reserved ranges are not. An IPv6 address that
 * embeds an IPv4 one (`::127.0.0.1`, `::ffff:10.0.0.1`, NAT64, 6to4) is judged as that IPv4 address
 * (docs/api.md §7.4); NAT64's local-use prefix 64:ff9b:1::/48 (RFC 8215) and Teredo are never public.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return false;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const v4 = embeddedIPv4(v6);
  if (v4) return v4.range() === 'unicast';
  if (v6.parts[0] === 0x64 && v6.parts[1] === 0xff9b && v6.parts[2] === 1) return false;
  return v6.range() === 'unicast';
}

class PrivateTargetError extends Error {
  constructor(address: string) {
    super(
      `Refused to connect to ${address}: a loopback, private, link-local, unique-local, multicast or unspecified address (WEBHOOK_ALLOW_PRIVATE_TARGETS is off).`,
    );
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that keeps only public addresses, so a name that resolves to a private one is never connected to. */
function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const usable = addresses.filter((entry) => isPublicAddress(entry.address));
    if (!usable.length) return callback(new PrivateTargetError(addresses[0]?.address ?? hostname), []);
    if (options.all) return callback(null, usable);
    callback(null, usable[0].address, usable[0].family);
  });
}

/**
 * Sends webhook deliveries over undici: no redirects followed, a 10-second limit on the whole
 * attempt, at most 64 KiB of the answer read, and (unless private targets are allowed) no connection
 * to a non-public address: names resolve to public addresses only, and the address the socket
 * actually connected to is checked again before anything is sent.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly allowPrivateTargets: boolean) {
    const connect = buildConnector({ timeout: ATTEMPT_TIMEOUT_MS, ...(allowPrivateTargets ? {} : { lookup: publicLookup }) });
    this.agent = new Agent({
      headersTimeout: ATTEMPT_TIMEOUT_MS,
      bodyTimeout: ATTEMPT_TIMEOUT_MS,
      connect: (options, callback) => {
        if (allowPrivateTargets) return connect(options, callback);
        const literal = options.hostname.replace(/^\[|\]$/g, '');
        if (isIP(literal) && !isPublicAddress(literal)) return callback(new PrivateTargetError(literal), null);
        connect(options, (error, socket) => {
          if (error) return callback(error, null);
          const remote = socket.remoteAddress;
          if (!remote || !isPublicAddress(remote)) {
            socket.destroy();
            return callback(new PrivateTargetError(remote ?? options.hostname), null);
          }
          callback(null, socket);
        });
      },
    });
  }

  async send(url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome> {
    try {
      const answer = await request(url, {
        method: 'POST',
        body,
        headers,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const start = await readStart(answer.body);
      if (answer.statusCode >= 200 && answer.statusCode < 300) return { ok: true, statusCode: answer.statusCode, error: null };
      const text = start.toString('utf8').slice(0, 1000);
      return { ok: false, statusCode: answer.statusCode, error: `HTTP ${answer.statusCode}${text ? `: ${text}` : ''}` };
    } catch (error) {
      return { ok: false, statusCode: null, error: describe(error) };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** Reads at most MAX_ANSWER_BYTES of an answer and drops the rest (the connection with it). */
async function readStart(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_ANSWER_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES);
}

/** A network failure as LastError shows it (the innermost cause names it best). */
function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `No answer within ${ATTEMPT_TIMEOUT_MS / 1000} seconds`;
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) parts.push(e.message);
  return parts.filter(Boolean).join(': ') || 'Delivery failed';
}
