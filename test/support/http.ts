// One HTTP request to a running service as the process tests send it: a JSON or form body, the answer's
// body parsed as JSON when it is JSON.

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when it is not JSON. */
  body: any;
}

export async function httpRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string>; timeoutMs?: number },
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const res = await fetch(url, { method: options.method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? 15_000) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
