/* mpix_support.h - helpers of the MPIX_ tests (tests-c/test_mpix_*.c) and of nomem.c's MPIX_
 * steps, on top of support.h.
 *
 *   make_info    a new object holding given pairs, set in order
 *   holds        whether an object holds exactly given pairs, in order
 *   rnd          a small deterministic random number generator (xorshift)
 *   record, EXPECT   a thread's first failed expectation, kept for the main thread to report */
#ifndef MPIX_SUPPORT_H
#define MPIX_SUPPORT_H

#include "support.h"

/* What a thread found: how many of its expectations failed, and the line and return code of the
 * first. Each thread writes its own; the main thread reads them after joining. */
typedef struct {
    int id, failures, line, rc;
} record;

/* EXPECT(r, cond, code): counts a failed `cond` in the record r, keeping the first one's line
 * and the return code `code` it saw. */
#define EXPECT(r, cond, code)                                                              \
    do {                                                                                   \
        if (!(cond) && (r)->failures++ == 0) {                                             \
            (r)->line = __LINE__;                                                          \
            (r)->rc = (code);                                                              \
        }                                                                                  \
    } while (0)

/* A dump() of the n pairs kv[0] = kv[1], kv[2] = kv[3], ... in dump()'s format. */
static inline char *pairs_dump(const char *const *kv, int n, size_t *len) {
    size_t cap = 32;
    for (int i = 0; i < 2 * n; i++) cap += strlen(kv[i]) + 1;
    char *out = (char *)malloc(cap);
    if (!out) exit(2);
    size_t used = (size_t)snprintf(out, cap, "%d", n) + 1;
    for (int i = 0; i < 2 * n; i++) {
        size_t l = strlen(kv[i]) + 1;
        memcpy(out + used, kv[i], l);
        used += l;
    }
    *len = used;
    return out;
}

/* 1 if info holds exactly the n pairs kv[0] = kv[1], kv[2] = kv[3], ..., in this order. */
static inline int holds(MPI_Info info, const char *const *kv, int n) {
    size_t want_len;
    char *want = pairs_dump(kv, n, &want_len);
    int same = same_as(info, want, want_len);
    if (!same)
        fprintf(stderr, "  object %d does not hold the %d pairs expected\n", MPI_Info_toint(info),
                n);
    free(want);
    return same;
}

/* A new object holding the n pairs kv[0] = kv[1], ..., set in order. Exits with 2 on error. */
static inline MPI_Info make_info(const char *const *kv, int n) {
    MPI_Info info;
    if (MPI_Info_create(&info) != MPI_SUCCESS) exit(2);
    for (int i = 0; i < n; i++)
        if (MPI_Info_set(info, kv[2 * i], kv[2 * i + 1]) != MPI_SUCCESS) exit(2);
    return info;
}

/* xorshift64: the same sequence for the same seed, so a failure can be replayed. */
static unsigned long long rnd_state = 0x9E3779B97F4A7C15ull;
static inline unsigned rnd(unsigned below) {
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return below ? (unsigned)(rnd_state % below) : 0u;
}

#endif
