/** A browser session against a server over real HTTP: cookies, the last CSRF token, no redirect following. */
export function httpSession(base: string) {
  const cookies = new Map<string, string>();
  let csrf = '';
  async function request(path: string, form?: Record<string, string>) {
    const res = await fetch(base + path, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams({ _csrf: csrf, ...form }).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (value) cookies.set(name, value);
      else cookies.delete(name);
    }
    const body = await res.text();
    csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? csrf;
    return { status: res.status, body, location: res.headers.get('location') };
  }
  return { request };
}
