/* test_handles.c - info handles (docs/reference.md, "Handles").
 *
 * - Forged values (0, -1, INT_MIN, INT_MAX, every value 1..4095 including MPI_INFO_NULL and
 *   MPI_INFO_ENV, pseudo-random ints from a fixed seed, values next to live handles, live
 *   handles with one or two bits flipped, freed handles) never crash and never reach another
 *   object: every function that takes a handle, the MPIX_ ones and PMPI_ names included,
 *   answers MPI_ERR_INFO with its outputs untouched (MPI_INFO_ENV: reads work, every write is
 *   MPI_ERR_INFO), and a write through a forged value changes no live object (their full
 *   contents are compared with a snapshot). The probe is tests-c/handle_probe.h's, which
 *   tests-c/abi_handles.c runs too.
 * - User handles are > 0, != MPI_INFO_NULL, != MPI_INFO_ENV and >= 4096.
 * - A freed handle is dead for every function, and stays dead while nothing reuses it.
 * - Reuse distance: after a handle is freed, the next 1,000,000 handles created differ from
 *   it. Checked as "all handles created in a window of 1,000,000 creations are pairwise
 *   distinct" (which docs/reference.md, "Handles", implies), with and without 10,000 objects
 *   live meanwhile.
 * - 1,000,000 objects live at once: all distinct, all valid, all dead after being freed.
 *
 * MPI_INFO_UNDER_VALGRIND set: fewer pseudo-random probes; the 1,000,000 checks stay.
 *
 * Handles are forged, compared and sorted through their integer form (MPI_Info_fromint and
 * MPI_Info_toint), so that against the standard ABI library (MPI_INFO_TEST_ABI) the same values
 * are tried, by the same probe; tests-c/abi_handles.c tries the values only a pointer can have. */
#include "handle_probe.h"

#include <limits.h>
#include <stdint.h>
#include <time.h>

#define MILLION 1000000

static int under_valgrind;

/* ---------------------------------------------------------------- PRNG (fixed seed) */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(void) {
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

/* h with the bits of mask flipped in its integer form. */
static MPI_Info flip(MPI_Info h, unsigned mask) {
    return MPI_Info_fromint((int)((unsigned)MPI_Info_toint(h) ^ mask));
}

/* ---------------------------------------------------------------- forged values */

static void test_forged(void) {
    /* Named special values. */
    {
        int special[] = {0,       -1,           INT_MIN,  INT_MAX,  INT_MIN + 1,
                         INT_MAX - 1, -304,     -305,     -4096,    4096,
                         65535,   65536,        1 << 30,  (int)0x80000001u,
                         (int)0xFFFF0000u, MPI_Info_toint(MPI_INFO_NULL),
                         MPI_Info_toint(MPI_INFO_ENV)};
        category_begin("special values");
        for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
            MPI_Info v = MPI_Info_fromint(special[i]);
            if (!is_fixture(v)) category_probe(v);
        }
        CHECK(category_bad == 0);
        CHECK(fixtures_unchanged());
    }
    /* Every value of the predefined range 1..4095 (304 = NULL, 305 = ENV included). */
    {
        int reached_fixture = 0;
        category_begin("1..4095");
        for (int v = 1; v <= 4095; v++) {
            if (is_fixture(MPI_Info_fromint(v))) {
                reached_fixture = 1; /* a user handle below 4096: checked below */
                continue;
            }
            category_probe(MPI_Info_fromint(v));
        }
        CHECK(category_bad == 0);
        CHECK(!reached_fixture);
        CHECK(fixtures_unchanged());
    }
    /* Pseudo-random ints. */
    {
        int count = under_valgrind ? 5000 : 200000;
        category_begin("pseudo-random");
        for (int i = 0; i < count; i++) {
            MPI_Info v = MPI_Info_fromint((int)rnd());
            if (is_fixture(v)) continue;
            category_probe(v);
        }
        CHECK(category_bad == 0);
        CHECK(fixtures_unchanged());
    }
    /* Values next to the live handles (an implementation with sequential indices). */
    {
        int span = under_valgrind ? 200 : 5000;
        category_begin("near live handles");
        for (int i = 0; i < NFIX; i++)
            for (int d = -span; d <= span; d++) {
                long long w = (long long)MPI_Info_toint(fix[i]) + d;
                if (w < INT_MIN || w > INT_MAX) continue;
                if (is_fixture(MPI_Info_fromint((int)w))) continue;
                category_probe(MPI_Info_fromint((int)w));
            }
        CHECK(category_bad == 0);
        CHECK(fixtures_unchanged());
    }
    /* Live handles with one bit flipped, and with two bits flipped. */
    {
        category_begin("one bit flipped");
        for (int i = 0; i < NFIX; i++)
            for (int b = 0; b < 32; b++) {
                MPI_Info v = flip(fix[i], 1u << b);
                if (!is_fixture(v)) category_probe(v);
            }
        CHECK(category_bad == 0);
        CHECK(fixtures_unchanged());
        category_begin("two bits flipped");
        for (int i = 0; i < NFIX; i++)
            for (int b = 0; b < 32; b++)
                for (int b2 = b + 1; b2 < 32; b2++) {
                    MPI_Info v = flip(fix[i], (1u << b) | (1u << b2));
                    if (!is_fixture(v)) category_probe(v);
                }
        CHECK(category_bad == 0);
        CHECK(fixtures_unchanged());
    }
}

/* ---------------------------------------------------------------- handle values */

static int good_user_handle(MPI_Info h) {
    int v = MPI_Info_toint(h);
    return v > 0 && h != MPI_INFO_NULL && h != MPI_INFO_ENV && v >= 4096;
}

static void test_user_handle_values(void) {
    for (int i = 0; i < NFIX; i++) CHECK(good_user_handle(fix[i]));
    {
        MPI_Info d = SENT_HANDLE, e = SENT_HANDLE;
        CHECK_RC(MPI_Info_dup(fix[0], &d), MPI_SUCCESS);
        CHECK(good_user_handle(d) && d != SENT_HANDLE && !is_fixture(d));
        CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &e), MPI_SUCCESS);
        CHECK(good_user_handle(e) && e != SENT_HANDLE && e != d && !is_fixture(e));
        CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
        CHECK_RC(MPI_Info_free(&e), MPI_SUCCESS);
        char a0[] = "x";
        char *av[] = {a0, NULL};
        e = SENT_HANDLE;
        CHECK_RC(MPI_Info_create_env(1, av, &e), MPI_SUCCESS);
        CHECK(good_user_handle(e) && e != SENT_HANDLE && !is_fixture(e));
        CHECK_RC(MPI_Info_free(&e), MPI_SUCCESS);
    }
}

/* ---------------------------------------------------------------- dead handles */

/* Handles freed during the program; at the end each is checked again. */
#define MAXDEAD 64
static MPI_Info dead_list[MAXDEAD];
static int ndead;

static void remember_dead(MPI_Info h) {
    if (ndead < MAXDEAD) dead_list[ndead++] = h;
}

/* A freed handle is dead for every function; the dup made before the free lives on. */
static void test_freed_is_dead(void) {
    MPI_Info h = MPI_INFO_NULL, d = MPI_INFO_NULL;
    CHECK_RC(MPI_Info_create(&h), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(h, "a", "doomed"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(h, "b", "also"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_dup(h, &d), MPI_SUCCESS);
    MPI_Info saved = h;
    CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
    CHECK(h == MPI_INFO_NULL);
    remember_dead(saved);

    {
        char buf[64];
        int flag = S32, vl = S32, bl = 60, n = S32;
        MPI_Info nw = SENT_HANDLE, c = saved;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(saved, "a", 60, buf, &flag), MPI_ERR_INFO);
        CHECK(flag == S32 && untouched(buf, 0, sizeof buf));
        CHECK_RC(MPI_Info_get_valuelen(saved, "a", &vl, &flag), MPI_ERR_INFO);
        CHECK(flag == S32 && vl == S32);
        CHECK_RC(MPI_Info_get_string(saved, "a", &bl, buf, &flag), MPI_ERR_INFO);
        CHECK(flag == S32 && bl == 60 && untouched(buf, 0, sizeof buf));
        CHECK_RC(MPI_Info_get_nkeys(saved, &n), MPI_ERR_INFO);
        CHECK(n == S32);
        CHECK_RC(MPI_Info_get_nthkey(saved, 0, buf), MPI_ERR_INFO);
        CHECK(untouched(buf, 0, sizeof buf));
        CHECK_RC(MPI_Info_set(saved, "a", "revived"), MPI_ERR_INFO);
        CHECK_RC(MPI_Info_set(saved, "new", "x"), MPI_ERR_INFO);
        CHECK_RC(MPI_Info_delete(saved, "a"), MPI_ERR_INFO);
        CHECK_RC(MPI_Info_dup(saved, &nw), MPI_ERR_INFO);
        CHECK(nw == SENT_HANDLE);
        CHECK_RC(MPI_Info_free(&c), MPI_ERR_INFO);
        CHECK(c == saved);
        /* The set above did not bring it back. */
        n = S32;
        CHECK_RC(MPI_Info_get_nkeys(saved, &n), MPI_ERR_INFO);
        CHECK(n == S32);
    }
    /* The dup is independent and intact. */
    {
        char buf[64];
        int flag = S32, n = -1;
        CHECK_RC(MPI_Info_get_nkeys(d, &n), MPI_SUCCESS);
        CHECK(n == 2);
        CHECK_RC(MPI_Info_get(d, "a", 60, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(buf, "doomed") == 0);
    }
    /* Creating more objects does not revive it (at most a few here; the 1,000,000 window
     * is checked by the reuse tests). */
    {
        MPI_Info more[1000];
        int reused = 0, all_ok = 1;
        for (int i = 0; i < 1000; i++) {
            if (MPI_Info_create(&more[i]) != MPI_SUCCESS) all_ok = 0;
            if (more[i] == saved || more[i] == d) reused = 1;
        }
        CHECK(all_ok);
        CHECK(!reused);
        CHECK(probe(saved));
        for (int i = 0; i < 10; i++) remember_dead(more[i * 100]);
        for (int i = 0; i < 1000; i++) MPI_Info_free(&more[i]);
        CHECK(probe(saved));
    }
    MPI_Info dsaved = d;
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    remember_dead(dsaved);
    CHECK(probe(dsaved));
    CHECK(fixtures_unchanged());
}

/* ---------------------------------------------------------------- helpers for big arrays */

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Number of equal neighbours after sorting (0 if all distinct); arr is sorted in place. The
 * first duplicate is printed. */
static long duplicates(int *arr, size_t n, const char *what) {
    long dups = 0;
    qsort(arr, n, sizeof *arr, cmp_int);
    for (size_t i = 1; i < n; i++)
        if (arr[i] == arr[i - 1]) {
            if (dups == 0) fprintf(stderr, "  %s: handle %d appears twice\n", what, arr[i]);
            dups++;
        }
    return dups;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- reuse distance */

/* Free H; then 1,000,000 creations, each freed at once. H (creation #0) and the churn
 * handles (#1..#1,000,000) lie in one window of 1,000,000 creations after any of them was
 * freed, so docs/reference.md, "Handles", makes them pairwise distinct; the fixtures are live
 * and distinct too. */
static void test_reuse_churn(void) {
    size_t n = MILLION + 1 + NFIX;
    int *all = (int *)malloc(n * sizeof(int));
    if (!all) exit(2);
    MPI_Info h = MPI_INFO_NULL;
    CHECK_RC(MPI_Info_create(&h), MPI_SUCCESS);
    MPI_Info H = h;
    CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
    remember_dead(H);

    long create_fail = 0, free_fail = 0, equal_H = 0, bad_value = 0;
    for (int i = 0; i < MILLION; i++) {
        MPI_Info x = MPI_INFO_NULL;
        if (MPI_Info_create(&x) != MPI_SUCCESS) {
            create_fail++;
            all[i] = INT_MIN + i; /* a distinct placeholder */
            continue;
        }
        if (x == H) equal_H++;
        if (!good_user_handle(x)) bad_value++;
        all[i] = MPI_Info_toint(x);
        if (MPI_Info_free(&x) != MPI_SUCCESS || x != MPI_INFO_NULL) free_fail++;
    }
    CHECK(create_fail == 0);
    CHECK(free_fail == 0);
    CHECK(equal_H == 0);
    CHECK(bad_value == 0);
    all[MILLION] = MPI_Info_toint(H);
    for (int i = 0; i < NFIX; i++) all[MILLION + 1 + i] = MPI_Info_toint(fix[i]);
    CHECK(duplicates(all, n, "churn") == 0);
    CHECK(probe(H));
    /* A few of the churned handles are dead as well. */
    {
        int bad = 0;
        for (int i = 0; i < 50; i++) {
            MPI_Info v = MPI_Info_fromint(all[rnd() % (uint32_t)MILLION]);
            if (!is_fixture(v) && !probe(v)) bad++;
        }
        CHECK(bad == 0);
    }
    CHECK(fixtures_unchanged());
    free(all);
}

/* The same with 10,000 objects live throughout: a pool of 10,000; at every 100th step of
 * the churn a random pool member is freed and replaced by the new object (frees out of
 * creation order). H2 is freed first, then 10,000 + 990,000 = 1,000,000 creations follow;
 * all of them, H2 and the fixtures are pairwise distinct. Pool contents are checked at the
 * end. */
#define POOL 10000
static void test_reuse_with_live(void) {
    size_t total = MILLION + 1 + NFIX;
    int *all = (int *)malloc(total * sizeof(int));
    MPI_Info *pool = (MPI_Info *)malloc(POOL * sizeof(MPI_Info));
    int *pool_id = (int *)malloc(POOL * sizeof(int));
    if (!all || !pool || !pool_id) exit(2);
    size_t nall = 0;
    long create_fail = 0, set_fail = 0, free_fail = 0, equal_H = 0, bad_value = 0;

    MPI_Info h = MPI_INFO_NULL;
    CHECK_RC(MPI_Info_create(&h), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(h, "a", "H2"), MPI_SUCCESS);
    MPI_Info H2 = h;
    CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
    remember_dead(H2);

    for (int i = 0; i < MILLION; i++) {
        MPI_Info x = MPI_INFO_NULL;
        if (MPI_Info_create(&x) != MPI_SUCCESS) {
            create_fail++;
            x = MPI_INFO_NULL;
        }
        if (x == H2) equal_H++;
        if (!good_user_handle(x)) bad_value++;
        all[nall++] = (x == MPI_INFO_NULL) ? INT_MIN + i : MPI_Info_toint(x);
        if (i < POOL || i % 100 == 0) {
            char v[16];
            snprintf(v, sizeof v, "%d", i);
            if (x != MPI_INFO_NULL && MPI_Info_set(x, "id", v) != MPI_SUCCESS) set_fail++;
            int slot;
            if (i < POOL) {
                slot = i;
            } else {
                slot = (int)(rnd() % POOL);
                if (MPI_Info_free(&pool[slot]) != MPI_SUCCESS) free_fail++;
            }
            pool[slot] = x;
            pool_id[slot] = i;
        } else if (x != MPI_INFO_NULL) {
            if (MPI_Info_free(&x) != MPI_SUCCESS) free_fail++;
        }
    }
    CHECK(create_fail == 0);
    CHECK(set_fail == 0);
    CHECK(free_fail == 0);
    CHECK(equal_H == 0);
    CHECK(bad_value == 0);
    CHECK(probe(H2));

    /* The pool members still hold their own "id", and only it. */
    {
        long wrong = 0;
        for (int s = 0; s < POOL; s++) {
            char buf[32], expect[16];
            int flag = 0, n = -1;
            snprintf(expect, sizeof expect, "%d", pool_id[s]);
            if (MPI_Info_get_nkeys(pool[s], &n) != MPI_SUCCESS || n != 1 ||
                MPI_Info_get(pool[s], "id", 30, buf, &flag) != MPI_SUCCESS || flag != 1 ||
                strcmp(buf, expect) != 0) {
                if (wrong == 0)
                    fprintf(stderr, "  pool object %d (created as #%d) is wrong\n",
                            MPI_Info_toint(pool[s]), pool_id[s]);
                wrong++;
            }
        }
        CHECK(wrong == 0);
    }

    all[nall++] = MPI_Info_toint(H2);
    for (int i = 0; i < NFIX; i++) all[nall++] = MPI_Info_toint(fix[i]);
    CHECK(nall == total);
    CHECK(duplicates(all, nall, "churn with 10,000 live") == 0);

    /* Free the pool; all dead afterwards. */
    {
        long ffail = 0, alive = 0;
        for (int s = 0; s < POOL; s++) {
            MPI_Info v = pool[s];
            if (MPI_Info_free(&pool[s]) != MPI_SUCCESS || pool[s] != MPI_INFO_NULL) ffail++;
            pool[s] = v;
        }
        for (int s = 0; s < POOL; s++) {
            int n = S32;
            if (MPI_Info_get_nkeys(pool[s], &n) != MPI_ERR_INFO || n != S32) alive++;
        }
        CHECK(ffail == 0);
        CHECK(alive == 0);
    }
    CHECK(fixtures_unchanged());
    free(all);
    free(pool);
    free(pool_id);
}

/* ---------------------------------------------------------------- 1,000,000 live */

static int in_sorted(const int *sorted, size_t n, int v) {
    return bsearch(&v, sorted, n, sizeof(int), cmp_int) != NULL;
}

static void test_million_live(void) {
    MPI_Info *h = (MPI_Info *)malloc(MILLION * sizeof(MPI_Info));
    int *sorted = (int *)malloc(MILLION * sizeof(int));
    if (!h || !sorted) exit(2);
    long create_fail = 0, bad_value = 0, set_fail = 0;

    for (int i = 0; i < MILLION; i++) {
        h[i] = SENT_HANDLE;
        if (MPI_Info_create(&h[i]) != MPI_SUCCESS) {
            create_fail++;
            h[i] = MPI_Info_fromint(INT_MIN + i);
            sorted[i] = INT_MIN + i; /* a distinct placeholder */
            continue;
        }
        sorted[i] = MPI_Info_toint(h[i]);
        if (!good_user_handle(h[i])) bad_value++;
        if (i % 1000 == 0) {
            char v[16];
            snprintf(v, sizeof v, "%d", i);
            if (MPI_Info_set(h[i], "i", v) != MPI_SUCCESS) set_fail++;
        }
    }
    CHECK(create_fail == 0);
    CHECK(bad_value == 0);
    CHECK(set_fail == 0);

    CHECK(duplicates(sorted, MILLION, "1,000,000 live") == 0);
    {
        int clash = 0;
        for (int i = 0; i < NFIX; i++)
            if (in_sorted(sorted, MILLION, MPI_Info_toint(fix[i]))) clash = 1;
        CHECK(!clash);
    }

    /* Forged values while 1,000,000 objects are live: bit flips of sampled live handles
     * and random values, skipping values that are live. A set/delete/free reaching one of
     * the live objects shows in the contents check below. */
    {
        int samples = under_valgrind ? 200 : 5000;
        category_begin("bit flips among 1,000,000 live");
        for (int s = 0; s < samples; s++) {
            MPI_Info base = h[rnd() % (uint32_t)MILLION];
            for (int b = 0; b < 32; b++) {
                MPI_Info v = flip(base, 1u << b);
                if (in_sorted(sorted, MILLION, MPI_Info_toint(v)) || is_fixture(v)) continue;
                category_probe(v);
            }
        }
        CHECK(category_bad == 0);
        category_begin("random among 1,000,000 live");
        for (int s = 0; s < samples * 4; s++) {
            MPI_Info v = MPI_Info_fromint((int)rnd());
            if (in_sorted(sorted, MILLION, MPI_Info_toint(v)) || is_fixture(v)) continue;
            category_probe(v);
        }
        CHECK(category_bad == 0);
    }

    /* Every handle valid, with exactly its own contents. */
    {
        long wrong = 0;
        for (int i = 0; i < MILLION; i++) {
            int n = -1;
            int expect = (i % 1000 == 0) ? 1 : 0;
            if (MPI_Info_get_nkeys(h[i], &n) != MPI_SUCCESS || n != expect) {
                if (wrong == 0)
                    fprintf(stderr, "  object #%d (%d): get_nkeys gave %d\n", i,
                            MPI_Info_toint(h[i]), n);
                wrong++;
            }
        }
        CHECK(wrong == 0);
        wrong = 0;
        for (int i = 0; i < MILLION; i += 1000) {
            char buf[32], expect[16];
            int flag = 0;
            snprintf(expect, sizeof expect, "%d", i);
            if (MPI_Info_get(h[i], "i", 30, buf, &flag) != MPI_SUCCESS || flag != 1 ||
                strcmp(buf, expect) != 0)
                wrong++;
        }
        CHECK(wrong == 0);
    }
    CHECK(fixtures_unchanged());

    /* Free them all (in an order unrelated to creation: odd indices first, then even);
     * then every one is dead. */
    {
        long ffail = 0, alive = 0;
        for (int pass = 1; pass >= 0; pass--)
            for (int i = pass; i < MILLION; i += 2) {
                MPI_Info c = h[i];
                if (MPI_Info_free(&c) != MPI_SUCCESS || c != MPI_INFO_NULL) ffail++;
            }
        CHECK(ffail == 0);
        for (int i = 0; i < MILLION; i++) {
            int n = S32;
            if (MPI_Info_get_nkeys(h[i], &n) != MPI_ERR_INFO || n != S32) {
                if (alive == 0)
                    fprintf(stderr, "  freed object %d still answers\n", MPI_Info_toint(h[i]));
                alive++;
            }
        }
        CHECK(alive == 0);
        /* A sample with the full probe. */
        int bad = 0;
        for (int i = 0; i < MILLION; i += under_valgrind ? 50000 : 10000)
            if (!probe(h[i])) bad++;
        CHECK(bad == 0);
    }
    CHECK(fixtures_unchanged());
    free(h);
    free(sorted);
}

/* ---------------------------------------------------------------- the end */

static void test_dead_at_end(void) {
    int bad = 0;
    for (int i = 0; i < ndead; i++) {
        if (is_fixture(dead_list[i])) continue; /* reused by a live object: allowed after
                                                   1,000,000 creations */
        if (!probe(dead_list[i])) {
            fprintf(stderr, "  freed handle %d answers: %s\n", MPI_Info_toint(dead_list[i]),
                    probe_fail);
            bad++;
        }
    }
    CHECK(bad == 0);
    CHECK(fixtures_unchanged());
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    under_valgrind = getenv("MPI_INFO_UNDER_VALGRIND") != NULL;
    double t0 = now();

    make_fixtures();
    test_user_handle_values();
    test_forged();
    test_freed_is_dead();
    test_reuse_churn();
    test_reuse_with_live();
    test_million_live();
    test_dead_at_end();

    free_fixtures();
    if (getenv("TEST_HANDLES_TIMING")) fprintf(stderr, "elapsed %.2fs\n", now() - t0);
    return check_report();
}
