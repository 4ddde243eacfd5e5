/* limits.c - the scale limits of docs/reference.md, "Limits", with the memory they take
 * measured and reported.
 *
 * Not a test_*.c (it is not run under valgrind): `make limits` runs it, and `make test` runs
 * it against the shared and the static library.
 *
 * 1. 1,000,000 live objects: every handle valid (> 0, >= 4096, not MPI_INFO_NULL or
 *    MPI_INFO_ENV) and all distinct; a get on each succeeds; then one pair in each, read back
 *    from each (so no two handles reach one object). Memory per empty object, and per object
 *    holding one pair.
 *    Beyond the 1,000,000: creation goes on until it fails or 2^21 objects are live. "Limits"
 *    promises 1,000,000; past that MPI_Info_create may only succeed (with a new, distinct
 *    handle) or fail with MPI_ERR_NO_MEM leaving *info untouched ("Rules every function
 *    follows"); while it fails, dup and create_env fail the same clean way or succeed, and
 *    the live objects are unchanged.
 *    Then everything is freed: every freed handle is dead (MPI_ERR_INFO), 1,000,000 objects can
 *    be live again, and none of those reuses a handle freed before ("Handles": not within
 *    1,000,000).
 * 2. One object with 1,000,000 pairs ("hint_NNNNNN" = "value_NNNNNN_with_some_length", as in
 *    the benchmark): nkeys; get of every key, and get_valuelen; get_nthkey at the first, the last
 *    and ~2,000 positions across the range; a dup, equal pair for pair; deletes in the middle
 *    of the dup shift the later keys down by one each (checked over the whole range) while the
 *    original keeps all its pairs; a deleted key set again goes to the end; a replaced value
 *    keeps its key's position. Memory per pair, and beyond the key and value text.
 *
 * Memory: glibc's mallinfo2() (heap in use, mmap'd blocks included) and VmRSS from
 * /proc/self/status, before and after (malloc_trim first, so that memory freed earlier does
 * not hide the growth of RSS). The figures are reported, not checked. */
#include "support.h"

#include <malloc.h>
#include <stdint.h>
#include <time.h>

#define MILLION 1000000
#define BEYOND (1 << 21) /* stop creating here if nothing failed before */
#define UNTOUCHED_HANDLE ((MPI_Info)0x5A5A5A5A)

static size_t heap_bytes(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

static long rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
    fclose(f);
    return kib;
}

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_handle(const void *a, const void *b) {
    int x = MPI_Info_toint(*(const MPI_Info *)a), y = MPI_Info_toint(*(const MPI_Info *)b);
    return (x > y) - (x < y);
}

/* 1 if sorted[0..n) has no two equal neighbours. */
static int all_distinct(const MPI_Info *sorted, size_t n) {
    for (size_t i = 1; i < n; i++)
        if (sorted[i] == sorted[i - 1]) return 0;
    return 1;
}

static int valid_user_handle(MPI_Info h) {
    int v = MPI_Info_toint(h);
    return v > 0 && v >= 4096 && h != MPI_INFO_NULL && h != MPI_INFO_ENV;
}

/* ---- 1. a million live objects ----------------------------------------------------------- */

static void million_objects(void) {
    MPI_Info *h = (MPI_Info *)malloc((size_t)BEYOND * sizeof *h);
    MPI_Info *sorted = (MPI_Info *)malloc((size_t)MILLION * sizeof *sorted);
    size_t heap0, heap1, heap2;
    long rss0, rss1, rss2;
    int ok, rc, n;
    size_t live = 0, beyond_ok = 0;
    int beyond_rc = MPI_SUCCESS;
    double t0 = seconds_now();
    if (!h || !sorted) exit(2);

    malloc_trim(0); /* so that RSS grows with what the objects take */
    heap0 = heap_bytes();
    rss0 = rss_kib();
    ok = 1;
    for (int i = 0; i < MILLION; i++) {
        h[i] = UNTOUCHED_HANDLE;
        if (MPI_Info_create(&h[i]) != MPI_SUCCESS || !valid_user_handle(h[i])) {
            if (ok) fprintf(stderr, "  create #%d failed or gave handle %d\n", i, MPI_Info_toint(h[i]));
            ok = 0;
            if (h[i] == UNTOUCHED_HANDLE) break;
        }
        live = (size_t)i + 1;
    }
    heap1 = heap_bytes();
    rss1 = rss_kib();
    CHECK(ok);
    CHECK(live == MILLION);
    if (live != MILLION) { /* the rest would not mean anything */
        check_report();
        exit(1);
    }

    memcpy(sorted, h, (size_t)MILLION * sizeof *sorted);
    qsort(sorted, MILLION, sizeof *sorted, cmp_handle);
    CHECK(all_distinct(sorted, MILLION));

    /* a get on each succeeds (the objects are empty) */
    ok = 1;
    for (int i = 0; i < MILLION; i++) {
        char buf[4];
        int flag = -7;
        if (MPI_Info_get(h[i], "k", 3, buf, &flag) != MPI_SUCCESS || flag != 0) ok = 0;
    }
    CHECK(ok);

    /* one pair each, read back from each: each handle reaches an object of its own */
    ok = 1;
    for (int i = 0; i < MILLION && ok; i++) {
        char v[16];
        snprintf(v, sizeof v, "%d", i);
        if (MPI_Info_set(h[i], "i", v) != MPI_SUCCESS) ok = 0;
    }
    CHECK(ok);
    heap2 = heap_bytes();
    rss2 = rss_kib();
    ok = 1;
    for (int i = 0; i < MILLION; i++) {
        char v[16], expect[16];
        int flag = -7;
        snprintf(expect, sizeof expect, "%d", i);
        if (MPI_Info_get(h[i], "i", 15, v, &flag) != MPI_SUCCESS || flag != 1 || strcmp(v, expect) != 0 ||
            MPI_Info_get_nkeys(h[i], &n) != MPI_SUCCESS || n != 1)
            ok = 0;
    }
    CHECK(ok);

    printf("limits: %d objects: %.1f bytes each (heap; RSS %.1f), %.1f with one pair each "
           "(heap; RSS %.1f)\n",
           MILLION, (double)(heap1 - heap0) / MILLION, (double)(rss1 - rss0) * 1024.0 / MILLION,
           (double)(heap2 - heap0) / MILLION, (double)(rss2 - rss0) * 1024.0 / MILLION);

    /* Beyond the guarantee: success with a new handle, or MPI_ERR_NO_MEM with *info untouched. */
    ok = 1;
    while (live < BEYOND) {
        h[live] = UNTOUCHED_HANDLE;
        rc = MPI_Info_create(&h[live]);
        if (rc != MPI_SUCCESS) {
            beyond_rc = rc;
            CHECK_RC(rc, MPI_ERR_NO_MEM);
            CHECK(h[live] == UNTOUCHED_HANDLE);
            break;
        }
        if (!valid_user_handle(h[live])) ok = 0;
        live++;
        beyond_ok++;
    }
    CHECK(ok);
    if (beyond_rc != MPI_SUCCESS) {
        /* while full: create again, dup and create_env fail cleanly (or succeed) */
        MPI_Info extra[3];
        char *argv0[] = {(char *)"limits", NULL};
        int rcs[3];
        for (int k = 0; k < 3; k++) extra[k] = UNTOUCHED_HANDLE;
        rcs[0] = MPI_Info_create(&extra[0]);
        rcs[1] = MPI_Info_dup(h[12345], &extra[1]);
        rcs[2] = MPI_Info_create_env(1, argv0, &extra[2]);
        for (int k = 0; k < 3; k++) {
            CHECK(rcs[k] == MPI_SUCCESS || rcs[k] == MPI_ERR_NO_MEM);
            if (rcs[k] == MPI_SUCCESS) {
                CHECK(valid_user_handle(extra[k]));
                h[live++] = extra[k];
            } else {
                CHECK(extra[k] == UNTOUCHED_HANDLE);
            }
        }
        /* the objects are as they were */
        ok = 1;
        for (int i = 0; i < MILLION; i += 997) {
            char v[16], expect[16];
            int flag = -7;
            snprintf(expect, sizeof expect, "%d", i);
            if (MPI_Info_get(h[i], "i", 15, v, &flag) != MPI_SUCCESS || flag != 1 ||
                strcmp(v, expect) != 0)
                ok = 0;
        }
        CHECK(ok);
        /* a change that needs no new object still works while the table is full */
        CHECK_RC(MPI_Info_set(h[777], "more", "yes"), MPI_SUCCESS);
        CHECK_RC(MPI_Info_delete(h[777], "more"), MPI_SUCCESS);
    }
    /* all live handles, the ones beyond the million too, distinct */
    {
        MPI_Info *all = (MPI_Info *)malloc(live * sizeof *all);
        if (!all) exit(2);
        memcpy(all, h, live * sizeof *all);
        qsort(all, live, sizeof *all, cmp_handle);
        CHECK(all_distinct(all, live));
        free(all);
    }
    printf("limits: beyond %d live objects: %zu more created, then %s\n", MILLION, beyond_ok,
           beyond_rc == MPI_SUCCESS ? "stopped at 2^21 without a failure"
                                    : beyond_rc == MPI_ERR_NO_MEM ? "MPI_ERR_NO_MEM" : "another error");

    /* free everything; every freed handle is dead */
    ok = 1;
    for (size_t i = 0; i < live; i++) {
        MPI_Info x = h[i];
        if (MPI_Info_free(&x) != MPI_SUCCESS || x != MPI_INFO_NULL) ok = 0;
    }
    CHECK(ok);
    ok = 1;
    for (size_t i = 0; i < live; i++) {
        int nk = -7;
        if (MPI_Info_get_nkeys(h[i], &nk) != MPI_ERR_INFO || nk != -7) ok = 0;
    }
    CHECK(ok);

    /* a million live again, none with a handle freed just before (sorted: the first million) */
    ok = 1;
    for (int i = 0; i < MILLION; i++) {
        MPI_Info x = UNTOUCHED_HANDLE;
        if (MPI_Info_create(&x) != MPI_SUCCESS || !valid_user_handle(x)) {
            ok = 0;
            break;
        }
        if (bsearch(&x, sorted, MILLION, sizeof *sorted, cmp_handle)) ok = 0;
        h[i] = x;
    }
    CHECK(ok);
    memcpy(sorted, h, (size_t)MILLION * sizeof *sorted);
    qsort(sorted, MILLION, sizeof *sorted, cmp_handle);
    CHECK(all_distinct(sorted, MILLION));
    ok = 1;
    for (int i = 0; i < MILLION; i++)
        if (MPI_Info_free(&h[i]) != MPI_SUCCESS) ok = 0;
    CHECK(ok);
    printf("limits: objects part took %.2f s\n", seconds_now() - t0);
    free(sorted);
    free(h);
}

/* ---- 2. a million pairs ----------------------------------------------------------------- */

static void pair_text(int i, char *key, char *val) {
    snprintf(key, 32, "hint_%06d", i);
    snprintf(val, 64, "value_%06d_with_some_length", i);
}

/* 1 if info's n-th key is the key of pair i. */
static int nth_is(MPI_Info info, int n, int i) {
    char key[MPI_MAX_INFO_KEY + 1], expect[32], val[64];
    pair_text(i, expect, val);
    return MPI_Info_get_nthkey(info, n, key) == MPI_SUCCESS && strcmp(key, expect) == 0;
}

/* 1 if info holds pair i with its value (or with `value` if not NULL). */
static int holds(MPI_Info info, int i, const char *value) {
    char key[32], expect[64], val[MPI_MAX_INFO_VAL + 1];
    int flag = -7, vl = -7;
    pair_text(i, key, expect);
    if (value) strcpy(expect, value);
    return MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, val, &flag) == MPI_SUCCESS && flag == 1 &&
           strcmp(val, expect) == 0 && MPI_Info_get_valuelen(info, key, &vl, &flag) == MPI_SUCCESS &&
           flag == 1 && vl == (int)strlen(expect);
}

static int lacks_pair(MPI_Info info, int i) {
    char key[32], val[64], buf[8];
    int flag = -7;
    pair_text(i, key, val);
    return MPI_Info_get(info, key, 7, buf, &flag) == MPI_SUCCESS && flag == 0;
}

static void million_pairs(void) {
    MPI_Info a = MPI_INFO_NULL, d = MPI_INFO_NULL;
    size_t heap0, heap1, heap2, text = 0;
    long rss0, rss1, rss2;
    int ok, n = -7;
    /* positions (in a's numbering) deleted from the dup, ascending */
    static const int gone[] = {1, 250000, 250001, 499999, 500000, 777777, 999998};
    const int ngone = (int)(sizeof gone / sizeof gone[0]);
    double t0 = seconds_now();

    malloc_trim(0); /* give back what part 1 freed, so that RSS grows with the pairs */
    heap0 = heap_bytes();
    rss0 = rss_kib();
    CHECK_RC(MPI_Info_create(&a), MPI_SUCCESS);
    ok = 1;
    for (int i = 0; i < MILLION && ok; i++) {
        char key[32], val[64];
        pair_text(i, key, val);
        text += strlen(key) + strlen(val);
        if (MPI_Info_set(a, key, val) != MPI_SUCCESS) ok = 0;
    }
    heap1 = heap_bytes();
    rss1 = rss_kib();
    CHECK(ok);
    CHECK_RC(MPI_Info_get_nkeys(a, &n), MPI_SUCCESS);
    CHECK(n == MILLION);
    printf("limits: %d pairs: %.1f bytes each (%.1f beyond key+value; RSS %.1f each)\n", MILLION,
           (double)(heap1 - heap0) / MILLION, ((double)(heap1 - heap0) - (double)text) / MILLION,
           (double)(rss1 - rss0) * 1024.0 / MILLION);

    /* every key, by get and get_valuelen */
    ok = 1;
    for (int i = 0; i < MILLION; i++)
        if (!holds(a, i, NULL)) ok = 0;
    CHECK(ok);
    /* nthkey: first, last, every 499th, and just past the end */
    CHECK(nth_is(a, 0, 0));
    CHECK(nth_is(a, MILLION - 1, MILLION - 1));
    ok = 1;
    for (int i = 0; i < MILLION; i += 499)
        if (!nth_is(a, i, i)) ok = 0;
    CHECK(ok);
    {
        char key[MPI_MAX_INFO_KEY + 1];
        fill_sentinel(key, sizeof key);
        CHECK_RC(MPI_Info_get_nthkey(a, MILLION, key), MPI_ERR_ARG);
        CHECK(untouched(key, 0, sizeof key));
    }

    /* dup: the same pairs in the same order */
    CHECK_RC(MPI_Info_dup(a, &d), MPI_SUCCESS);
    n = -7;
    CHECK_RC(MPI_Info_get_nkeys(d, &n), MPI_SUCCESS);
    CHECK(n == MILLION);
    ok = 1;
    for (int i = 0; i < MILLION; i++)
        if (!nth_is(d, i, i) || !holds(d, i, NULL)) ok = 0;
    CHECK(ok);

    /* deletes in the middle of the dup: later keys shift down, the original keeps them all */
    malloc_trim(0);
    heap2 = heap_bytes();
    rss2 = rss_kib();
    ok = 1;
    for (int g = ngone - 1; g >= 0; g--) { /* from the back, so a's numbering holds */
        char key[32], val[64];
        pair_text(gone[g], key, val);
        if (MPI_Info_delete(d, key) != MPI_SUCCESS) ok = 0;
    }
    CHECK(ok);
    {
        size_t heap3 = heap_bytes();
        long rss3 = rss_kib();
        printf("limits: first change to the dup copies the pairs: %.1f bytes per pair (RSS %.1f)\n",
               (double)(heap3 - heap2) / MILLION, (double)(rss3 - rss2) * 1024.0 / MILLION);
    }
    n = -7;
    CHECK_RC(MPI_Info_get_nkeys(d, &n), MPI_SUCCESS);
    CHECK(n == MILLION - ngone);
    ok = 1;
    for (int i = 0, g = 0, pos = 0; i < MILLION; i++) { /* the whole range, one key each */
        if (g < ngone && gone[g] == i) {
            g++;
            if (!lacks_pair(d, i)) ok = 0;
            continue;
        }
        if (!nth_is(d, pos, i)) ok = 0;
        pos++;
    }
    CHECK(ok);
    {
        char key[MPI_MAX_INFO_KEY + 1];
        CHECK_RC(MPI_Info_get_nthkey(d, MILLION - ngone, key), MPI_ERR_ARG);
    }
    /* the original is untouched */
    n = -7;
    CHECK_RC(MPI_Info_get_nkeys(a, &n), MPI_SUCCESS);
    CHECK(n == MILLION);
    ok = 1;
    for (int g = 0; g < ngone; g++)
        if (!holds(a, gone[g], NULL) || !nth_is(a, gone[g], gone[g]) || !nth_is(a, gone[g] + 1, gone[g] + 1))
            ok = 0; /* every gone[g] + 1 < MILLION */
    for (int i = 0; i < MILLION; i += 1009)
        if (!nth_is(a, i, i)) ok = 0;
    CHECK(ok);

    /* a deleted key set again goes to the end; a replaced value keeps its position */
    {
        char key[32], val[64];
        pair_text(500000, key, val);
        CHECK_RC(MPI_Info_set(d, key, "back"), MPI_SUCCESS);
        CHECK(nth_is(d, MILLION - ngone, 500000));
        CHECK(holds(d, 500000, "back"));
        pair_text(600000, key, val);
        CHECK_RC(MPI_Info_set(d, key, "replaced"), MPI_SUCCESS);
        CHECK(nth_is(d, 600000 - 5, 600000)); /* 5 of the deleted lie before it */
        CHECK(holds(d, 600000, "replaced"));
        CHECK(holds(a, 600000, NULL));
        CHECK(nth_is(a, 600000, 600000));
        n = -7;
        CHECK_RC(MPI_Info_get_nkeys(d, &n), MPI_SUCCESS);
        CHECK(n == MILLION - ngone + 1);
    }

    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&a), MPI_SUCCESS);
    printf("limits: pairs part took %.2f s\n", seconds_now() - t0);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    million_objects();
    million_pairs();
    return check_report();
}
