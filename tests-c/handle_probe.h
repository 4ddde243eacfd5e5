/* handle_probe.h - the forged-handle probe of tests-c/test_handles.c (both libraries) and
 * tests-c/abi_handles.c (the standard ABI build), on top of support.h: one source for both.
 *
 * It is written against MPI_Info as check.h declares it: an int (mpi_info.h) or, built with
 * MPI_INFO_TEST_ABI, a pointer (mpi_info_abi.h). An integer becomes a handle only through
 * MPI_Info_fromint, so the same integers are forged for both libraries.
 *
 *   SENT_HANDLE      a handle output's sentinel (in the ABI build all 64 bits of it)
 *   handle_text      a handle as text for failure messages
 *   fixtures         NFIX live objects with known pairs, and snapshots of them and of
 *                    MPI_INFO_ENV to show that no probe changed them
 *   probe            every function that takes a handle (MPI_, PMPI_, MPIX_ and PMPIX_) on one
 *                    value: for a value that names no object, MPI_ERR_INFO with every output
 *                    untouched; for MPI_INFO_ENV, the reads answer and every write is
 *                    MPI_ERR_INFO
 *   categories       probes counted by category, the first few wrong answers printed */
#ifndef HANDLE_PROBE_H
#define HANDLE_PROBE_H

#include "support.h"

#include <stdint.h>

#define S32 0x5A5A5A5A

/* What a handle output holds before a call that must not write it. */
#ifdef MPI_INFO_TEST_ABI
#define SENT_HANDLE ((MPI_Info)(uintptr_t)0x5A5A5A5A5A5A5A5Aull)
#else
#define SENT_HANDLE ((MPI_Info)S32)
#endif

/* h as text: its integer form, and in the ABI build its address (which the integer form
 * cannot show when it is above INT_MAX). The buffer is overwritten by the next call. */
static inline const char *handle_text(MPI_Info h) {
    static char text[64];
    int as_int = MPI_Info_toint(h);
#ifdef MPI_INFO_TEST_ABI
    snprintf(text, sizeof text, "%d (%p)", as_int, (void *)h);
#else
    snprintf(text, sizeof text, "%d (0x%08x)", as_int, (unsigned)as_int);
#endif
    return text;
}

/* ---------------------------------------------------------------- fixtures */

/* Live objects with known contents for the whole program; each holds "a" (which the probes try
 * to overwrite and delete) and "list" (which the list reads try). fix_handle(NFIX) is
 * MPI_INFO_ENV, whose snapshot is taken with theirs. */
#define NFIX 4
static MPI_Info fix[NFIX];
static char *fix_snap[NFIX + 1];
static size_t fix_len[NFIX + 1];

static inline MPI_Info fix_handle(int i) { return i < NFIX ? fix[i] : MPI_INFO_ENV; }

static inline void make_fixtures(void) {
    for (int i = 0; i < NFIX; i++) {
        char v[32];
        snprintf(v, sizeof v, "fixture %d", i);
        if (MPI_Info_create(&fix[i]) != MPI_SUCCESS || MPI_Info_set(fix[i], "a", v) != MPI_SUCCESS ||
            MPI_Info_set(fix[i], "b", "bee") != MPI_SUCCESS ||
            MPI_Info_set(fix[i], "list", i % 2 ? "x,y" : "z") != MPI_SUCCESS ||
            (i % 2 && MPI_Info_set(fix[i], "odd", "") != MPI_SUCCESS)) {
            fprintf(stderr, "make_fixtures failed\n");
            exit(2);
        }
    }
    for (int i = 0; i <= NFIX; i++) fix_snap[i] = dump(fix_handle(i), &fix_len[i]);
}

static inline int is_fixture(MPI_Info v) {
    for (int i = 0; i < NFIX; i++)
        if (fix[i] == v) return 1;
    return 0;
}

/* 1 if every fixture and MPI_INFO_ENV hold what they held at make_fixtures. */
static inline int fixtures_unchanged(void) {
    int ok = 1;
    for (int i = 0; i <= NFIX; i++)
        if (!same_as(fix_handle(i), fix_snap[i], fix_len[i])) {
            fprintf(stderr, "  live object %s changed\n", handle_text(fix_handle(i)));
            ok = 0;
        }
    return ok;
}

static inline void free_fixtures(void) {
    for (int i = 0; i < NFIX; i++) {
        CHECK_RC(MPI_Info_free(&fix[i]), MPI_SUCCESS);
        CHECK(fix[i] == MPI_INFO_NULL);
    }
    for (int i = 0; i <= NFIX; i++) free(fix_snap[i]);
}

/* ---------------------------------------------------------------- probing one value */

static const char *probe_fail; /* the call that misbehaved in the last probe() */

/* Every function that takes a handle, on v, which is no live object but MPI_INFO_ENV perhaps
 * (the callers skip the fixtures and their own live objects). Returns 1 if each answered as
 * docs/reference.md ("Handles") says, else 0 with probe_fail naming the first call that did
 * not: for a value that is no object, MPI_ERR_INFO with every output untouched, in either place
 * of the calls that take two handles; for MPI_INFO_ENV, the reads answer from its contents and
 * every call that would change it is MPI_ERR_INFO. */
static inline int probe(MPI_Info v) {
    char buf[64];
    int flag, n, len, value, rc;
    int64_t value64;
    MPI_Info out, c;
    const char *const choices[] = {"x", "y"};
#define PROBE_FAIL(name)                                                                   \
    do {                                                                                   \
        probe_fail = (name);                                                               \
        return 0;                                                                          \
    } while (0)
    /* call is refused, and the outputs are as they were */
#define REFUSED(call, outputs_untouched)                                                   \
    do {                                                                                   \
        if ((call) != MPI_ERR_INFO || !(outputs_untouched)) PROBE_FAIL(#call);             \
    } while (0)
    /* call (on MPI_INFO_ENV) succeeds with the answer `right` */
#define ANSWERS(call, right)                                                               \
    do {                                                                                   \
        if ((call) != MPI_SUCCESS || !(right)) PROBE_FAIL(#call);                          \
    } while (0)
#define RESET()                                                                            \
    (flag = S32, n = S32, len = 60, value = S32, value64 = S32, out = SENT_HANDLE,         \
     fill_sentinel(buf, sizeof buf))
#define UNTOUCHED()                                                                        \
    (flag == S32 && n == S32 && len == 60 && value == S32 && value64 == S32 &&             \
     out == SENT_HANDLE && untouched(buf, 0, sizeof buf))

    if (v == MPI_INFO_ENV) {
        int nkeys;
        ANSWERS(MPI_Info_get_nkeys(v, &nkeys), nkeys >= 3);
        ANSWERS(PMPI_Info_get_nkeys(v, &n), n == nkeys);
        flag = S32;
        ANSWERS(MPI_Info_get(v, "maxprocs", 60, buf, &flag), flag == 1 && strcmp(buf, "1") == 0);
        flag = S32;
        ANSWERS(MPIX_Info_get_int(v, "maxprocs", &value, &flag), flag == 1 && value == 1);
        flag = S32;
        ANSWERS(MPIX_Info_equal(v, fix[1], 0, &flag), flag == 0);
        flag = S32;
        ANSWERS(MPIX_Info_equal(fix[1], v, 1, &flag), flag == 0);
    } else {
        RESET();
        REFUSED(MPI_Info_get(v, "a", 60, buf, &flag), UNTOUCHED());
        REFUSED(MPI_Info_get_valuelen(v, "a", &n, &flag), UNTOUCHED());
        REFUSED(MPI_Info_get_string(v, "a", &len, buf, &flag), UNTOUCHED());
        REFUSED(MPI_Info_get_nkeys(v, &n), UNTOUCHED());
        REFUSED(MPI_Info_get_nthkey(v, 0, buf), UNTOUCHED());
        rc = MPI_Info_dup(v, &out);
        if (rc == MPI_SUCCESS && out != SENT_HANDLE) MPI_Info_free(&out); /* no leak on failure */
        if (rc != MPI_ERR_INFO || !UNTOUCHED()) PROBE_FAIL("MPI_Info_dup(v, &out)");
        REFUSED(PMPI_Info_get_nkeys(v, &n), UNTOUCHED());
        REFUSED(MPIX_Info_get_bool(v, "a", &value, &flag), UNTOUCHED());
        REFUSED(MPIX_Info_get_int(v, "a", &value, &flag), UNTOUCHED());
        REFUSED(MPIX_Info_get_int64(v, "a", &value64, &flag), UNTOUCHED());
        REFUSED(MPIX_Info_get_enum(v, "a", 2, choices, &value, &flag), UNTOUCHED());
        REFUSED(MPIX_Info_get_nitems(v, "list", &n, &flag), UNTOUCHED());
        REFUSED(MPIX_Info_get_item(v, "list", 0, &len, buf, &flag), UNTOUCHED());
        REFUSED(MPIX_Info_merge(fix[0], v, 1), 1);
        REFUSED(MPIX_Info_serialize(v, &len, buf), UNTOUCHED());
        REFUSED(MPIX_Info_equal(v, fix[1], 1, &flag), UNTOUCHED());
        REFUSED(MPIX_Info_equal(fix[1], v, 0, &flag), UNTOUCHED());
        /* The checks refuse the handle before they look at the rest (here bad too). */
        REFUSED(MPIX_Info_check(v, "mpich", &out), UNTOUCHED());
        REFUSED(PMPIX_Info_check(v, "no-such-target", NULL), 1);
        REFUSED(MPIX_Info_check_with_vocab(v, "{}", NULL, &out), UNTOUCHED());
        REFUSED(PMPIX_Info_check_with_vocab(v, NULL, "mpich", &out), UNTOUCHED());
    }
    /* What would change the object: refused for both. */
    REFUSED(MPI_Info_set(v, "a", "forged"), 1);
    REFUSED(MPI_Info_set(v, "forged", "x"), 1);
    REFUSED(MPI_Info_delete(v, "a"), 1);
    c = v;
    REFUSED(MPI_Info_free(&c), c == v);
    REFUSED(PMPI_Info_set(v, "a", "forged"), 1);
    REFUSED(MPIX_Info_set_bool(v, "a", 1), 1);
    REFUSED(MPIX_Info_set_int64(v, "a", 7), 1);
    REFUSED(MPIX_Info_merge(v, fix[0], 1), 1);
    REFUSED(MPIX_Info_set_from_string(v, "a 2", MPIX_INFO_FORMAT_LINES, 1), 1);
    REFUSED(MPIX_Info_set_from_file(v, "/dev/null", MPIX_INFO_FORMAT_LINES, 1), 1);
    return 1;
#undef PROBE_FAIL
#undef REFUSED
#undef ANSWERS
#undef RESET
#undef UNTOUCHED
}

/* ---------------------------------------------------------------- categories */

/* Probes of one category: how many values were answered wrongly, the first few printed. */
static int category_bad;
static const char *category;

static inline void category_begin(const char *name) {
    category = name;
    category_bad = 0;
}

static inline void category_probe(MPI_Info v) {
    if (!probe(v)) {
        if (category_bad < 5)
            fprintf(stderr, "  %s: handle %s: %s misbehaved\n", category, handle_text(v),
                    probe_fail);
        category_bad++;
    }
}

#endif
