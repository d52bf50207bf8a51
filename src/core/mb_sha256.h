/* mb_sha256.h -- SHA-256 (FIPS 180-4), the content hash of shard manifests and of the
 * reference cache (doc/cluster.md).
 *
 * Incremental: init, update any number of times, final.  mb_sha256_hex() writes the 64
 * lower-case hexadecimal digits and a NUL; mb_sha256_file() hashes a whole file. */
#ifndef MB_SHA256_H
#define MB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define MB_SHA256_HEX 65     /* 64 digits and the NUL */

typedef struct mb_sha256 {
    uint32_t h[8];
    uint64_t bytes;          /* message length so far */
    unsigned char block[64];
    size_t used;             /* bytes of block filled */
} mb_sha256;

void mb_sha256_init(mb_sha256 *s);
void mb_sha256_update(mb_sha256 *s, const void *data, size_t n);
void mb_sha256_final(mb_sha256 *s, unsigned char digest[32]);
/* Finish and write the digest as hex into hex[MB_SHA256_HEX]. */
void mb_sha256_hex(mb_sha256 *s, char hex[MB_SHA256_HEX]);
/* Hash of a whole file (MB_EIO with the path and the reason when it cannot be read). */
int mb_sha256_file(const char *path, char hex[MB_SHA256_HEX]);

#endif
