import { describe, expect, it } from 'vitest';
import { expiryText, formatBytes, formatExactBytes, percentOf, signedUrlExpiry } from './format';

describe('formatBytes', () => {
  it('uses powers of 1024 with at most one decimal', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatBytes(1_073_741_824)).toBe('1 GB');
    expect(formatBytes(300 * 1024 * 1024)).toBe('300 MB');
  });

  it('writes exact sizes with separators', () => {
    expect(formatExactBytes(20_971_520)).toBe('20,971,520 bytes');
    expect(formatExactBytes(1)).toBe('1 byte');
  });
});

describe('percentOf', () => {
  it('rounds down and stays within 0 to 100', () => {
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(1000, 1000)).toBe(100);
    expect(percentOf(2000, 1000)).toBe(100);
    expect(percentOf(0, 0)).toBe(0);
  });
});

describe('signed link expiry', () => {
  it("reads the local driver's expires", () => {
    expect(signedUrlExpiry('/v1/files/download?tenant=t&path=a.png&expires=1767225600&signature=x')).toEqual(
      new Date('2026-01-01T00:00:00Z'),
    );
  });

  it('reads an S3 presigned URL', () => {
    const url = 'https://s3.example.com/b/k?X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-Signature=x';
    expect(signedUrlExpiry(url)).toEqual(new Date('2026-01-01T01:00:00Z'));
  });

  it('answers null when the URL does not say', () => {
    expect(signedUrlExpiry('/v1/files/download?path=a')).toBeNull();
  });

  it('says when in words', () => {
    const now = new Date(2026, 0, 1, 14, 0, 0);
    expect(expiryText(new Date(2026, 0, 1, 15, 0, 0), now)).toBe('in 60 minutes (at 15:00)');
    expect(expiryText(new Date(2026, 0, 1, 17, 0, 0), now)).toBe('in about 3 hours (at 17:00)');
    expect(expiryText(new Date(2026, 0, 1, 14, 0, 30), now)).toBe('in 30 seconds (at 14:00)');
    expect(expiryText(new Date(2026, 0, 1, 13, 0, 0), now)).toBe('already');
  });
});
