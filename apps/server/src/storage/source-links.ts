import { isWebLink } from '@omnibot/contracts';
import { DOWNLOAD_PATH, type UrlSigner } from './url-signer';

/**
 * The links of answer sources as the server hands them out: a web page's http(s) address as it is, a file of the
 * tenant's storage as a download link the server signs, and nothing else (no raw storage path, no other scheme).
 */
export interface SourceLinks {
  /**
   * The link of a source as retrieval reads it (a page's url, or a file's storage path): a web page as it is, a
   * storage path signed for `tenantId`, null for anything else.
   */
  present(tenantId: string, raw: string | null | undefined): string | null;
  /**
   * A link stored with an answer (a transcript), shown again: a web page as it is; one of this server's
   * download links for `tenantId` signed again so it works now; a storage path stored before links were
   * signed, signed; null for anything else (another tenant's link, another scheme).
   */
  refresh(tenantId: string, stored: string | null | undefined): string | null;
}

// A storage path never holds an empty segment, so one that starts like a web address is a web address.
const looksLikeWebAddress = (value: string) => /^https?:\/\//i.test(value);

export function createSourceLinks(signer: UrlSigner, publicUrl: string, ttlSeconds: number): SourceLinks {
  const sign = (tenantId: string, path: string) =>
    signer.sign(tenantId, path, new Date(Date.now() + ttlSeconds * 1000));
  const downloadPrefix = `${publicUrl}${DOWNLOAD_PATH}?`;

  const present = (tenantId: string, raw: string | null | undefined): string | null => {
    if (!raw) return null;
    if (looksLikeWebAddress(raw)) return isWebLink(raw) ? raw : null;
    return sign(tenantId, raw);
  };

  return {
    present,
    refresh(tenantId, stored) {
      if (!stored) return null;
      if (stored.startsWith(downloadPrefix)) {
        const query = new URLSearchParams(stored.slice(downloadPrefix.length));
        const tenant = query.get('tenant') ?? '';
        const path = query.get('path') ?? '';
        const check = signer.verify({
          tenant,
          path,
          expires: Number(query.get('expires')),
          signature: query.get('signature') ?? '',
        });
        return check !== 'invalid' && tenant === tenantId && path ? sign(tenantId, path) : null;
      }
      return present(tenantId, stored);
    },
  };
}
