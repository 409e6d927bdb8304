import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPublicAddress } from './webhook-sender.js';

// docs/api.md §7.4: an IPv6 address that embeds an IPv4 one counts as that IPv4 address, in every
// form that hands traffic to it (compatible, mapped, translated, NAT64, 6to4).
describe('webhook targets: IPv6 addresses that embed an IPv4 one', () => {
  const privateV4 = ['127.0.0.1', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '224.0.0.1'];
  const hex = (v4: string) => {
    const [a, b, c, d] = v4.split('.').map(Number);
    return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  };

  it('judges each embedded private IPv4 address as private, whatever the form', () => {
    for (const v4 of privateV4) {
      const [high, low] = hex(v4);
      const forms = [
        `::${v4}`,
        `[::${v4}]`,
        `::${high}:${low}`,
        `0:0:0:0:0:0:${v4}`,
        `::ffff:${v4}`,
        `::ffff:${high}:${low}`,
        `0:0:0:0:0:ffff:${v4}`,
        `::ffff:0:${v4}`,
        `64:ff9b::${v4}`,
        `64:ff9b::${high}:${low}`,
        `2002:${high}:${low}::1`,
        `2002:${high}:${low}:1234::abcd`,
      ];
      for (const form of forms) assert.equal(isPublicAddress(form), false, form);
    }
  });

  it('judges an embedded public IPv4 address as public, and leaves other IPv6 addresses to their range', () => {
    for (const form of ['::ffff:8.8.8.8', '::8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '::ffff:0:8.8.8.8', '2606:4700:4700::1111']) {
      assert.equal(isPublicAddress(form), true, form);
    }
    for (const form of ['64:ff9b:1::8.8.8.8', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:db8::1', 'fe80::1%eth0', '::1', '::']) {
      assert.equal(isPublicAddress(form), false, form);
    }
  });
});
