// A minimal browser over fetch: a cookie jar, manual redirects and form submission, enough
// to walk the login and consent pages through real HTTP.

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export interface PageResponse {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

export class Browser {
  private cookies = new Map<string, string>();

  /** `headers` go with every request: a test speaks through a proxy with X-Forwarded-For. */
  constructor(
    readonly baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  private absorb(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<PageResponse> {
    const url = path.startsWith('http') ? path : this.baseUrl + path;
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...this.headers,
        cookie: this.cookieHeader(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    this.absorb(res);
    return { status: res.status, headers: res.headers, body: await res.text(), location: res.headers.get('location') };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  post(path: string, form: Record<string, string>) {
    return this.request('POST', path, form);
  }

  /** Follows same-origin redirects; stops at the first response that is not one, or leaves the origin. */
  async follow(first: PageResponse, limit = 10): Promise<PageResponse> {
    let res = first;
    for (let i = 0; i < limit && res.location; i++) {
      const target = new URL(res.location, this.baseUrl);
      if (target.origin !== new URL(this.baseUrl).origin) return res;
      res = await this.get(target.pathname + target.search);
    }
    return res;
  }

  async login(email: string, password: string, next = '/'): Promise<PageResponse> {
    const form = await this.get(`/login?next=${encodeURIComponent(next)}`);
    return this.post('/login', { _csrf: formFields(form.body)._csrf!, email, password, next });
  }
}

/** Hidden and named inputs of the first form on a page, unescaped. */
export function formFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]!] = unescapeHtml(match[2]!);
  }
  return fields;
}
