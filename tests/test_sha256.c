/* test_sha256.c -- SHA-256 against the examples of FIPS 180-2 appendix B ("abc", the
 * 448-bit two-block message, one million 'a') and the empty message; the same digests
 * whatever the split of the input into update calls; a file hashed as its bytes. */
#include "mb_sha256.h"
#include "mb_status.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void hex_of(const char *msg, size_t n, size_t chunk, char out[MB_SHA256_HEX])
{
    mb_sha256 s;
    mb_sha256_init(&s);
    for (size_t k = 0; k < n; k += chunk)
        mb_sha256_update(&s, msg + k, n - k < chunk ? n - k : chunk);
    mb_sha256_hex(&s, out);
}

Test(sha256, fips_examples)
{
    char h[MB_SHA256_HEX];
    hex_of("abc", 3, 3, h);
    cr_expect_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hex_of(two, strlen(two), 64, h);
    cr_expect_str_eq(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    hex_of("", 0, 1, h);
    cr_expect_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

Test(sha256, million_a_in_any_split)
{
    static char a[1000000];
    memset(a, 'a', sizeof a);
    const size_t chunks[] = { 1000000, 1, 55, 56, 63, 64, 65, 999 };
    for (size_t k = 0; k < sizeof chunks / sizeof *chunks; k++) {
        char h[MB_SHA256_HEX];
        hex_of(a, sizeof a, chunks[k], h);
        cr_expect_str_eq(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
                         "chunk %zu", chunks[k]);
    }
}

Test(sha256, file)
{
    char path[] = "sha256-test.XXXXXX", h[MB_SHA256_HEX];
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert(write(fd, "abc", 3) == 3);
    close(fd);
    cr_expect_eq(mb_sha256_file(path, h), MB_SUCCESS);
    cr_expect_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    unlink(path);
    cr_expect_eq(mb_sha256_file(path, h), MB_EIO);
    cr_expect(strstr(mb_last_error(), path) != NULL);
}
