/* pln_sha256.h — SHA-256 (FIPS 180-4), for content fingerprints: trajectory.json records
 * the SHA-256 of the robot it was planned for (model/pln_robot.h pln_robot_fingerprint),
 * so that `hrpplan export` refuses a different robot. */
#ifndef PLN_SHA256_H
#define PLN_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "base/pln_status.h"

typedef struct PlnSha256 {
    uint32_t h[8];
    uint64_t bytes;        /* message length so far */
    unsigned char buf[64]; /* the partial block */
    size_t fill;
} PlnSha256;

void pln_sha256_init(PlnSha256 *s);
void pln_sha256_update(PlnSha256 *s, const void *data, size_t n);
/* Finishes the digest into hex[65] (lowercase, NUL-terminated). */
void pln_sha256_hex(PlnSha256 *s, char hex[65]);
/* Adds the bytes of a file (read in blocks; checked by pln_file_open_input with max_bytes). */
PlnStatus pln_sha256_file(PlnSha256 *s, const char *path, const char *what, long long max_bytes,
                          char *err, size_t err_size);

#endif /* PLN_SHA256_H */
