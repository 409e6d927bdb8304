import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { parseRetryDelays } from '../../config/configuration.js';
import { generateSecret, platformSignature, signedHeaders } from './signatures.js';
import { isPublicAddress } from './webhook-sender.js';
import { isHookUrl } from './webhooks.rules.js';

describe('webhook signatures', () => {
  it('generates whsec_ secrets of 32 random bytes', () => {
    const [one, two] = [generateSecret(), generateSecret()];
    assert.match(one, /^whsec_/);
    assert.equal(Buffer.from(one.slice(6), 'base64').length, 32);
    assert.notEqual(one, two);
  });

  it('signs as the platform (upper-case hex) and as Standard Webhooks (verified by its library)', () => {
    const body = JSON.stringify([{ Id: 1, Name: 'Café ☕' }]);
    for (const [secret, options] of [
      [generateSecret(), undefined],
      ['a raw secret of some length', { format: 'raw' as const }],
    ] as const) {
      const headers = signedHeaders(secret, 'evt-1', body);
      assert.equal(
        headers['x-nexudus-hook-signature'],
        createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex').toUpperCase(),
      );
      assert.equal(headers['x-nexudus-hook-signature'], platformSignature(secret, body));
      assert.doesNotThrow(() => new Webhook(secret, options).verify(body, headers));
      assert.throws(() => new Webhook(secret, options).verify(`${body} `, headers));
    }
  });
});

describe('webhook targets', () => {
  it('only public unicast addresses are reachable', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      assert.equal(isPublicAddress(address), true, address);
    const refused = [
      '127.0.0.1',
      '127.5.6.7',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '100.64.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '[::1]',
      'not-an-ip',
    ];
    for (const address of refused) assert.equal(isPublicAddress(address), false, address);
  });

  it('hook URLs are absolute http(s) without credentials', () => {
    assert.equal(isHookUrl('https://hooks.example.com/in?x=1'), true);
    assert.equal(isHookUrl('http://10.0.0.1:8080/'), true);
    for (const url of [
      'ftp://example.com/',
      'example.com/hook',
      '/hook',
      'https://user@example.com/',
      'https://u:p@example.com/',
      'javascript:alert(1)',
    ]) {
      assert.equal(isHookUrl(url), false, url);
    }
  });

  it('WEBHOOK_RETRY_DELAYS: seconds separated by commas; anything else is refused', () => {
    assert.deepEqual(parseRetryDelays(undefined), [5, 60, 300, 1800, 7200, 18000, 36000, 36000, 50400]);
    assert.deepEqual(parseRetryDelays('0.2, 1,30'), [0.2, 1, 30]);
    for (const bad of ['a', '1,,2', '-1', '1;2', '9999999']) assert.throws(() => parseRetryDelays(bad), /WEBHOOK_RETRY_DELAYS/, bad);
  });
});
