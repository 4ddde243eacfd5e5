/* serial_fuzz.c - a libFuzzer target for MPIX_Info_deserialize, checked against a reference
 * decoder of the serialization format (docs/mpix.md) written here from the documentation,
 * independently of the library.
 *
 * Every input is a candidate serialized object, given whole to MPIX_Info_deserialize (or to
 * PMPIX_Info_deserialize, for inputs of odd length) from a buffer that ends where an
 * inaccessible page begins, so a read past `buflen` faults. The reference decoder decides
 * accept or reject and, for a reject, the error class (the first defect in the bytes decides);
 * the library must agree exactly. Then:
 *   - rejected: the output handle is untouched (no object was created);
 *   - accepted: the new object holds the reference's pairs in the same order (nkeys, then each
 *     pair through get_nthkey and get_string, byte for byte), is equal to itself and to its
 *     duplicate, and serializes back to exactly the input bytes (the format is canonical), both
 *     whole and into a buffer cut at a point the input chooses (the beginning only, nothing past
 *     it); finally it is freed.
 * On the first difference the harness prints what differed and calls abort(), which libFuzzer
 * records as a crash and fuzz/replay_main.c as a failed input. */
#define _GNU_SOURCE 1
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef MPI_INFO_TEST_ABI
#include "mpi_info_abi.h"
#else
#include "mpi_info.h"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Checks made so far in this process (fuzz/replay_main.c reports them under this name). */
unsigned long long info_fuzz_checks;

#define INT_SENT ((int)0xA5A5A5A5u)
/* The handle whose integer form is INT_SENT (with MPI_INFO_TEST_ABI: that address). */
#define HANDLE_SENT ((MPI_Info)(intptr_t)INT_SENT)
#define BYTE_SENT 0xA5
#define KEY_MAX (MPI_MAX_INFO_KEY - 1)   /* 255 */
#define VAL_MAX (MPI_MAX_INFO_VAL - 1)   /* 1023 */
#define REGION (1 << 20)                 /* inputs up to this size are guarded */

static void fail(int line, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "serial_fuzz: MISMATCH (harness line %d): ", line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fflush(stderr);
    abort();
}

#define EXPECT(cond, ...)                            \
    do {                                             \
        info_fuzz_checks++;                          \
        if (!(cond)) fail(__LINE__, __VA_ARGS__);    \
    } while (0)

/* ---------------------------------------------------------------- the reference decoder */

struct ref_pair {
    const uint8_t *key, *value;
    size_t klen, vlen;
};

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* A length field at *at and the bytes it counts: MPI_SUCCESS with *p and *len set, or the
 * class of the defect (a field cut short: MPI_ERR_ARG; a length above limit: too_long). */
static int field(const uint8_t *bytes, size_t n, size_t *at, size_t limit, int too_long, const uint8_t **p, size_t *len) {
    if (n - *at < 4) return MPI_ERR_ARG;
    *len = be32(bytes + *at);
    *at += 4;
    if (*len > limit) return too_long;
    if (n - *at < *len) return MPI_ERR_ARG;
    *p = bytes + *at;
    *at += *len;
    return MPI_SUCCESS;
}

/* Decodes bytes[0..n) as docs/mpix.md describes version 1: MPI_SUCCESS and the pairs (in
 * *pairs, malloc'd, *npairs of them), or the class of the first defect. */
static int ref_decode(const uint8_t *bytes, size_t n, struct ref_pair **pairs, size_t *npairs) {
    *pairs = NULL;
    *npairs = 0;
    if (n < 12 || memcmp(bytes, "MPII", 4) != 0 || be32(bytes + 4) != 1) return MPI_ERR_ARG;
    size_t count = be32(bytes + 8);
    size_t at = 12;
    if (count > (n - at) / 9) return MPI_ERR_ARG;
    struct ref_pair *out = (struct ref_pair *)malloc((count ? count : 1) * sizeof *out);
    if (!out) abort();
    int rc = MPI_SUCCESS;
    size_t i;
    for (i = 0; i < count; i++) {
        struct ref_pair *p = &out[i];
        rc = field(bytes, n, &at, KEY_MAX, MPI_ERR_INFO_KEY, &p->key, &p->klen);
        if (rc != MPI_SUCCESS) break;
        if (p->klen == 0 || memchr(p->key, 0, p->klen)) { rc = MPI_ERR_INFO_KEY; break; }
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) seen = out[j].klen == p->klen && memcmp(out[j].key, p->key, p->klen) == 0;
        if (seen) { rc = MPI_ERR_ARG; break; }
        rc = field(bytes, n, &at, VAL_MAX, MPI_ERR_INFO_VALUE, &p->value, &p->vlen);
        if (rc != MPI_SUCCESS) break;
        if (memchr(p->value, 0, p->vlen)) { rc = MPI_ERR_INFO_VALUE; break; }
    }
    if (rc == MPI_SUCCESS && at != n) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) {
        free(out);
        return rc;
    }
    *pairs = out;
    *npairs = count;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- guarded memory */

/* Two regions of REGION bytes, each followed by an inaccessible page: the input is copied so
 * that it ends at in_end, and serialize writes into a buffer that ends at out_end. */
static unsigned char *in_end, *out_end;

static unsigned char *guarded_region(void) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *base = (unsigned char *)mmap(NULL, REGION + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED || mprotect(base + REGION, page, PROT_NONE) != 0) {
        perror("serial_fuzz: mmap");
        abort();
    }
    return base + REGION;
}

/* ---------------------------------------------------------------- the checks */

/* The object holds exactly the reference's pairs, in order. */
static void check_pairs(MPI_Info info, const struct ref_pair *pairs, size_t npairs) {
    int nkeys = INT_SENT;
    EXPECT(MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS && nkeys == (int)npairs, "nkeys %d, expected %zu", nkeys, npairs);
    for (size_t i = 0; i < npairs; i++) {
        char key[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL];
        int flag = INT_SENT, buflen = (int)sizeof value;
        EXPECT(MPI_Info_get_nthkey(info, (int)i, key) == MPI_SUCCESS, "get_nthkey %zu failed", i);
        EXPECT(strlen(key) == pairs[i].klen && memcmp(key, pairs[i].key, pairs[i].klen) == 0, "key %zu differs", i);
        EXPECT(MPI_Info_get_string(info, key, &buflen, value, &flag) == MPI_SUCCESS && flag == 1, "get_string of key %zu", i);
        EXPECT(buflen == (int)pairs[i].vlen + 1 && memcmp(value, pairs[i].value, pairs[i].vlen) == 0, "value %zu differs", i);
    }
}

/* Serializing the object gives back exactly the n input bytes; into a buffer of `room` bytes
 * (room < n), exactly their first `room` bytes and nothing else. */
static void check_serialize(MPI_Info info, const uint8_t *bytes, size_t n, size_t room) {
    int size = 0;
    EXPECT(PMPIX_Info_serialize(info, &size, NULL) == MPI_SUCCESS && size == (int)n, "serialized size %d, input %zu", size, n);
    unsigned char *out = out_end - n;
    memset(out - 64, BYTE_SENT, n + 64);
    size = (int)n;
    EXPECT(MPIX_Info_serialize(info, &size, out) == MPI_SUCCESS && size == (int)n, "serialize whole: size %d", size);
    EXPECT(memcmp(out, bytes, n) == 0, "serialized bytes differ from the input");
    for (size_t i = 0; i < 64; i++) EXPECT(out[(ptrdiff_t)i - 64] == BYTE_SENT, "serialize wrote before its buffer");
    out = out_end - room;
    memset(out, BYTE_SENT, room);
    size = (int)room;
    EXPECT(MPIX_Info_serialize(info, &size, room ? out : NULL) == MPI_SUCCESS && size == (int)n, "serialize into %zu bytes", room);
    EXPECT(memcmp(out, bytes, room) == 0, "serialize into %zu bytes: not the beginning", room);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!in_end) {
        in_end = guarded_region();
        out_end = guarded_region();
    }
    if (size > REGION) return 0;
    uint8_t *input = in_end - size;
    memcpy(input, data, size);
    struct ref_pair *pairs;
    size_t npairs;
    int want = ref_decode(input, size, &pairs, &npairs);
    int (*deserialize)(const void *, int, MPI_Info *) = size % 2 ? PMPIX_Info_deserialize : MPIX_Info_deserialize;
    MPI_Info info = HANDLE_SENT;
    int rc = deserialize(input, (int)size, &info);
    EXPECT(rc == want, "deserialize of %zu bytes returned %d, the reference decoder %d", size, rc, want);
    if (rc != MPI_SUCCESS) {
        EXPECT(info == HANDLE_SENT, "deserialize failed with %d but wrote the handle %d", rc,
               MPI_Info_toint(info));
        return 0;
    }
    check_pairs(info, pairs, npairs);
    MPI_Info copy = HANDLE_SENT;
    int equal = INT_SENT;
    EXPECT(MPI_Info_dup(info, &copy) == MPI_SUCCESS, "dup failed");
    EXPECT(MPIX_Info_equal(info, copy, 1, &equal) == MPI_SUCCESS && equal == 1, "not equal to its duplicate");
    equal = INT_SENT;
    EXPECT(PMPIX_Info_equal(info, info, 0, &equal) == MPI_SUCCESS && equal == 1, "not equal to itself");
    /* The cut point: the last byte of the input, scaled to its length. */
    check_serialize(info, input, size, size ? (size_t)input[size - 1] * size / 256 : 0);
    EXPECT(MPI_Info_free(&copy) == MPI_SUCCESS && MPI_Info_free(&info) == MPI_SUCCESS, "free failed");
    free(pairs);
    return 0;
}
