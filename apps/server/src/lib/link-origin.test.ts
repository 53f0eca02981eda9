import { describe, expect, it } from 'vitest';
import { linkOrigin, originOf } from './link-origin.ts';

const policy = { publicUrl: undefined, fallback: 'http://localhost:3000', allowedOrigins: [] as string[] };
const req = (headers: Record<string, string>, protocol = 'http') => ({ headers, protocol });

describe('linkOrigin', () => {
  it('follows the origin the user is on when it is a loopback address', () => {
    expect(linkOrigin(req({ host: '127.0.0.1:3000' }), policy)).toBe('http://127.0.0.1:3000');
    expect(linkOrigin(req({ host: 'localhost:3300' }), policy)).toBe('http://localhost:3300');
    expect(linkOrigin(req({ host: '[::1]:3000' }), policy)).toBe('http://[::1]:3000');
    // The browser's Origin (the dev server's page, proxied to the API) before the Host the proxy kept.
    expect(linkOrigin(req({ origin: 'http://127.0.0.1:5173', host: 'localhost:3000' }), policy)).toBe(
      'http://127.0.0.1:5173',
    );
    // A same-origin GET carries no Origin: its Referer tells the page.
    expect(
      linkOrigin(req({ referer: 'http://127.0.0.1:3000/dashboard/home', host: 'x.example' }), policy),
    ).toBe('http://127.0.0.1:3000');
  });

  it('never uses a foreign Host or Origin: the default instead (host header injection)', () => {
    expect(linkOrigin(req({ host: 'evil.example' }), policy)).toBe('http://localhost:3000');
    expect(linkOrigin(req({ host: 'evil.example', origin: 'https://evil.example' }), policy)).toBe(
      'http://localhost:3000',
    );
    expect(linkOrigin(req({ host: '127.0.0.1.evil.example' }), policy)).toBe('http://localhost:3000');
    expect(linkOrigin(req({ host: 'localhost@evil.example' }), policy)).toBe('http://localhost:3000');
    expect(linkOrigin(req({ origin: 'null', host: 'evil.example' }), policy)).toBe('http://localhost:3000');
    expect(linkOrigin(req({}), policy)).toBe('http://localhost:3000');
    expect(linkOrigin(undefined, policy)).toBe('http://localhost:3000');
  });

  it('accepts an origin from ALLOWED_ORIGINS, exactly', () => {
    const lan = { ...policy, allowedOrigins: ['http://192.168.1.20:3000'] };
    expect(linkOrigin(req({ host: '192.168.1.20:3000' }), lan)).toBe('http://192.168.1.20:3000');
    expect(linkOrigin(req({ host: '192.168.1.20:3001' }), lan)).toBe('http://localhost:3000');
    expect(linkOrigin(req({ host: '192.168.1.20:3000' }, 'https'), lan)).toBe('http://localhost:3000');
  });

  it('PUBLIC_URL wins over any request', () => {
    const pub = { ...policy, publicUrl: 'https://flywheel.example.com/' };
    expect(linkOrigin(req({ host: '127.0.0.1:3000' }), pub)).toBe('https://flywheel.example.com');
    expect(linkOrigin(req({ host: 'evil.example' }), pub)).toBe('https://flywheel.example.com');
  });

  it('originOf takes http(s) origins only', () => {
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('http://user:pw@localhost:3000')).toBeNull();
    expect(originOf('not a url')).toBeNull();
    expect(originOf('https://a.example/x?y')).toBe('https://a.example');
  });
});
