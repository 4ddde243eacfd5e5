/* test_order.c - key order (docs/reference.md, "Order"): insertion order through get_nthkey,
 * replacing keeps the position, delete shifts later keys down, a deleted key set again goes to the
 * end, dup keeps the order, failed deletes change nothing, an emptied object has no nthkey. Small
 * objects by hand; sizes around likely representation switches; a 1000-key object under a
 * fixed-seed random mix of operations checked against an array model. */
#include "support.h"

#include <limits.h>

/* Sizes of the key and value buffers of the tests below (the model is in support.h). */
#define MK 40
#define MV 48

/* 1 if info has exactly the model's keys, in its order, with its values. Reports the first
 * difference. */
static int matches(MPI_Info info, const model *m, const char *what) {
    int n = -1;
    char key[MPI_MAX_INFO_KEY + 8], val[MPI_MAX_INFO_VAL];
    if (MPI_Info_get_nkeys(info, &n) != MPI_SUCCESS || n != m->n) {
        fprintf(stderr, "%s: nkeys %d, model %d\n", what, n, m->n);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        int flag = -1;
        fill_sentinel(key, sizeof key);
        if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS || strcmp(key, m->k[i]) != 0 ||
            !untouched(key, strlen(m->k[i]) + 1, sizeof key)) {
            fprintf(stderr, "%s: nthkey(%d) = \"%.40s\", model \"%s\"\n", what, i, key, m->k[i]);
            return 0;
        }
        if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, val, &flag) != MPI_SUCCESS || flag != 1 ||
            strcmp(val, m->v[i]) != 0) {
            fprintf(stderr, "%s: value of %s wrong\n", what, key);
            return 0;
        }
    }
    /* one past the end is an error and writes nothing */
    fill_sentinel(key, sizeof key);
    if (MPI_Info_get_nthkey(info, n, key) != MPI_ERR_ARG || !untouched(key, 0, sizeof key)) {
        fprintf(stderr, "%s: nthkey(nkeys) did not fail cleanly\n", what);
        return 0;
    }
    return 1;
}

/* Shortcut for small hand-written cases: keys listed, values from the object ignored. */
static int order_is(MPI_Info info, int n, const char *const *keys) {
    int nk = -1;
    char key[MPI_MAX_INFO_KEY];
    if (MPI_Info_get_nkeys(info, &nk) != MPI_SUCCESS || nk != n) {
        fprintf(stderr, "order_is: nkeys %d, expected %d\n", nk, n);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS || strcmp(key, keys[i]) != 0) {
            fprintf(stderr, "order_is: nthkey(%d) = \"%s\", expected \"%s\"\n", i, key, keys[i]);
            return 0;
        }
    }
    return 1;
}

static int value_is(MPI_Info info, const char *key, const char *val) {
    char buf[MPI_MAX_INFO_VAL];
    int flag = -1;
    return MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, buf, &flag) == MPI_SUCCESS &&
           flag == 1 && strcmp(buf, val) == 0;
}

static void test_small(void) {
    MPI_Info info = MPI_INFO_NULL, d = MPI_INFO_NULL;
    char key[MPI_MAX_INFO_KEY];
    int n;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);

    /* Not alphabetical, not by length: only insertion order fits. */
    CHECK_RC(MPI_Info_set(info, "zeta", "1"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "alpha", "2"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "mu", "3"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "beta_long_name", "4"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "c", "5"), MPI_SUCCESS);
    {
        static const char *const e[] = {"zeta", "alpha", "mu", "beta_long_name", "c"};
        CHECK(order_is(info, 5, e));
    }

    /* Replacing keeps the position. */
    CHECK_RC(MPI_Info_set(info, "mu", "three"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "zeta", "one"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "c", "five"), MPI_SUCCESS);
    {
        static const char *const e[] = {"zeta", "alpha", "mu", "beta_long_name", "c"};
        CHECK(order_is(info, 5, e));
        CHECK(value_is(info, "mu", "three") && value_is(info, "zeta", "one"));
    }

    /* Delete in the middle: later keys shift down. */
    CHECK_RC(MPI_Info_delete(info, "alpha"), MPI_SUCCESS);
    {
        static const char *const e[] = {"zeta", "mu", "beta_long_name", "c"};
        CHECK(order_is(info, 4, e));
    }
    fill_sentinel(key, sizeof key);
    CHECK_RC(MPI_Info_get_nthkey(info, 3, key), MPI_SUCCESS);
    CHECK(strcmp(key, "c") == 0 && untouched(key, 2, sizeof key));
    fill_sentinel(key, sizeof key);
    CHECK_RC(MPI_Info_get_nthkey(info, 4, key), MPI_ERR_ARG);
    CHECK(untouched(key, 0, sizeof key));

    /* A deleted key set again goes to the end. */
    CHECK_RC(MPI_Info_set(info, "alpha", "2again"), MPI_SUCCESS);
    {
        static const char *const e[] = {"zeta", "mu", "beta_long_name", "c", "alpha"};
        CHECK(order_is(info, 5, e));
        CHECK(value_is(info, "alpha", "2again"));
    }

    /* Delete the first, then the last. */
    CHECK_RC(MPI_Info_delete(info, "zeta"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(info, "alpha"), MPI_SUCCESS);
    {
        static const char *const e[] = {"mu", "beta_long_name", "c"};
        CHECK(order_is(info, 3, e));
    }
    /* Set the old first key again: now last. */
    CHECK_RC(MPI_Info_set(info, "zeta", "z"), MPI_SUCCESS);
    {
        static const char *const e[] = {"mu", "beta_long_name", "c", "zeta"};
        CHECK(order_is(info, 4, e));
    }

    /* Delete of a missing key: MPI_ERR_INFO_NOKEY, nothing changes. */
    CHECK_RC(MPI_Info_delete(info, "alpha"), MPI_ERR_INFO_NOKEY);
    CHECK_RC(MPI_Info_delete(info, "nothere"), MPI_ERR_INFO_NOKEY);
    CHECK_RC(MPI_Info_delete(info, "Mu"), MPI_ERR_INFO_NOKEY);
    CHECK_RC(MPI_Info_delete(info, "mu "), MPI_ERR_INFO_NOKEY);
    {
        static const char *const e[] = {"mu", "beta_long_name", "c", "zeta"};
        CHECK(order_is(info, 4, e));
        CHECK(value_is(info, "mu", "three") && value_is(info, "c", "five") &&
              value_is(info, "zeta", "z") && value_is(info, "beta_long_name", "4"));
    }
    /* Invalid keys to delete: MPI_ERR_INFO_KEY, nothing changes. */
    CHECK_RC(MPI_Info_delete(info, ""), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_delete(info, NULL), MPI_ERR_INFO_KEY);

    /* dup keeps the order; changes to the dup's order do not reach the original. */
    CHECK_RC(MPI_Info_dup(info, &d), MPI_SUCCESS);
    {
        static const char *const e[] = {"mu", "beta_long_name", "c", "zeta"};
        CHECK(order_is(d, 4, e));
    }
    CHECK_RC(MPI_Info_delete(d, "mu"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(d, "mu", "m"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(d, "c", "cc"), MPI_SUCCESS);
    {
        static const char *const e[] = {"beta_long_name", "c", "zeta", "mu"};
        static const char *const o[] = {"mu", "beta_long_name", "c", "zeta"};
        CHECK(order_is(d, 4, e));
        CHECK(order_is(info, 4, o));
    }
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);

    /* Out-of-range nthkey on a non-empty object. */
    fill_sentinel(key, sizeof key);
    CHECK_RC(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_nthkey(info, INT_MIN, key), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_nthkey(info, INT_MAX, key), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_nthkey(info, 4, key), MPI_ERR_ARG);
    CHECK(untouched(key, 0, sizeof key));
    CHECK_RC(MPI_Info_get_nthkey(info, 0, NULL), MPI_ERR_ARG);

    /* Delete everything: nkeys 0, nthkey(0) is MPI_ERR_ARG. */
    CHECK_RC(MPI_Info_delete(info, "c"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(info, "mu"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(info, "zeta"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(info, "beta_long_name"), MPI_SUCCESS);
    n = -1;
    CHECK_RC(MPI_Info_get_nkeys(info, &n), MPI_SUCCESS);
    CHECK(n == 0);
    fill_sentinel(key, sizeof key);
    CHECK_RC(MPI_Info_get_nthkey(info, 0, key), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
    CHECK(untouched(key, 0, sizeof key));
    CHECK_RC(MPI_Info_delete(info, "c"), MPI_ERR_INFO_NOKEY);

    /* Refill after emptying: a fresh order. */
    CHECK_RC(MPI_Info_set(info, "c", "1"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "zeta", "2"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "a", "3"), MPI_SUCCESS);
    {
        static const char *const e[] = {"c", "zeta", "a"};
        CHECK(order_is(info, 3, e));
    }
    /* nthkey into exactly strlen+1 bytes ending at the guard */
    {
        char *g = guarded_end(5);
        CHECK_RC(MPI_Info_get_nthkey(info, 1, g), MPI_SUCCESS);
        CHECK(strcmp(g, "zeta") == 0);
    }
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

/* Sizes 1..8 (and around likely switches from a small inline store to a table): insert n
 * keys in a scrambled order, replace one, delete one in the middle, re-set it, dup. */
static void test_sizes(void) {
    static const int sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  15, 16, 17,  31,
                                32, 33, 63, 64, 65, 96, 127, 128, 129, 255, 256, 257};
    int all_ok = 1;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        model m;
        MPI_Info info = MPI_INFO_NULL, d = MPI_INFO_NULL;
        char key[MK], val[MV], what[64];
        int ok = 1;
        model_init(&m, n + 4);
        if (MPI_Info_create(&info) != MPI_SUCCESS) ok = 0;
        for (int i = 0; i < n; i++) {
            /* scrambled names: 37 is coprime with every size's key space */
            snprintf(key, sizeof key, "k%05d", (i * 37 + 11) % 1009);
            snprintf(val, sizeof val, "v%d", i);
            if (MPI_Info_set(info, key, val) != MPI_SUCCESS) ok = 0;
            model_set(&m, key, val);
        }
        snprintf(what, sizeof what, "size %d after insert", n);
        ok &= matches(info, &m, what);
        /* replace the last and the first */
        snprintf(key, sizeof key, "%s", m.k[n - 1]);
        if (MPI_Info_set(info, key, "replaced-last") != MPI_SUCCESS) ok = 0;
        model_set(&m, key, "replaced-last");
        snprintf(key, sizeof key, "%s", m.k[0]);
        if (MPI_Info_set(info, key, "replaced-first") != MPI_SUCCESS) ok = 0;
        model_set(&m, key, "replaced-first");
        snprintf(what, sizeof what, "size %d after replace", n);
        ok &= matches(info, &m, what);
        /* delete the middle one, then set it again */
        snprintf(key, sizeof key, "%s", m.k[n / 2]);
        if (MPI_Info_delete(info, key) != MPI_SUCCESS) ok = 0;
        model_delete(&m, key);
        snprintf(what, sizeof what, "size %d after delete", n);
        ok &= matches(info, &m, what);
        if (MPI_Info_set(info, key, "back") != MPI_SUCCESS) ok = 0;
        model_set(&m, key, "back");
        snprintf(what, sizeof what, "size %d after re-set", n);
        ok &= matches(info, &m, what);
        /* dup keeps it */
        if (MPI_Info_dup(info, &d) != MPI_SUCCESS) ok = 0;
        snprintf(what, sizeof what, "size %d dup", n);
        ok &= matches(d, &m, what);
        if (MPI_Info_free(&d) != MPI_SUCCESS) ok = 0;
        /* delete from the front until empty, checking each time */
        while (m.n > 0) {
            snprintf(key, sizeof key, "%s", m.k[0]);
            if (MPI_Info_delete(info, key) != MPI_SUCCESS) ok = 0;
            model_delete(&m, key);
            if (m.n % 7 == 0 || m.n < 3) {
                snprintf(what, sizeof what, "size %d draining at %d", n, m.n);
                ok &= matches(info, &m, what);
            }
        }
        if (MPI_Info_free(&info) != MPI_SUCCESS) ok = 0;
        model_free(&m);
        if (!ok) fprintf(stderr, "order wrong at size %d\n", n);
        all_ok &= ok;
    }
    CHECK(all_ok);
}

/* xorshift32 with a fixed seed: the same run every time. */
static unsigned rng_state = 2463534242u;
static unsigned rng(void) {
    unsigned x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

static void test_large_random(void) {
    enum { START = 1000, POOL = 2000, OPS = 6000 };
    model m;
    MPI_Info info = MPI_INFO_NULL, d = MPI_INFO_NULL;
    char key[MK], val[MV], what[64];
    int ok_rc = 1, ok_n = 1, ok_match = 1;
    int dels = 0, missing_dels = 0, resets = 0, replaces = 0;
    model_init(&m, POOL + 8);
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    for (int i = 0; i < START; i++) {
        snprintf(key, sizeof key, "key-%d", (i * 1237) % POOL); /* 1000 distinct, scrambled */
        snprintf(val, sizeof val, "init-%d", i);
        if (MPI_Info_set(info, key, val) != MPI_SUCCESS) ok_rc = 0;
        model_set(&m, key, val);
    }
    CHECK(ok_rc);
    CHECK(m.n == START);
    CHECK(matches(info, &m, "large after fill"));

    for (int op = 0; op < OPS; op++) {
        unsigned r = rng() % 100;
        int nk = -1;
        if (r < 25 && m.n > 0) {
            /* delete an existing key */
            snprintf(key, sizeof key, "%s", m.k[rng() % (unsigned)m.n]);
            if (MPI_Info_delete(info, key) != MPI_SUCCESS) ok_rc = 0;
            model_delete(&m, key);
            dels++;
        } else if (r < 30) {
            /* delete a key that may be missing */
            snprintf(key, sizeof key, "key-%d", (int)(rng() % POOL));
            int expect = model_find(&m, key) >= 0 ? MPI_SUCCESS : MPI_ERR_INFO_NOKEY;
            if (MPI_Info_delete(info, key) != expect) ok_rc = 0;
            if (expect == MPI_ERR_INFO_NOKEY) missing_dels++;
            model_delete(&m, key);
        } else if (r < 50 && m.n > 0) {
            /* replace an existing key's value */
            snprintf(key, sizeof key, "%s", m.k[rng() % (unsigned)m.n]);
            snprintf(val, sizeof val, "rep-%d", op);
            if (MPI_Info_set(info, key, val) != MPI_SUCCESS) ok_rc = 0;
            model_set(&m, key, val);
            replaces++;
        } else {
            /* set a key from the pool: new, re-set after delete, or replace (the mix keeps the
             * object near 900 keys) */
            snprintf(key, sizeof key, "key-%d", (int)(rng() % POOL));
            snprintf(val, sizeof val, "set-%d", op);
            if (model_find(&m, key) < 0) resets++;
            if (MPI_Info_set(info, key, val) != MPI_SUCCESS) ok_rc = 0;
            model_set(&m, key, val);
        }
        if (MPI_Info_get_nkeys(info, &nk) != MPI_SUCCESS || nk != m.n) ok_n = 0;
        if (op % 500 == 499) {
            snprintf(what, sizeof what, "large after op %d", op);
            if (!matches(info, &m, what)) ok_match = 0;
        }
    }
    CHECK(ok_rc);
    CHECK(ok_n);
    CHECK(ok_match);
    CHECK(matches(info, &m, "large at end"));
    if (getenv("ORDER_VERBOSE"))
        fprintf(stderr, "n=%d dels=%d missing=%d resets=%d replaces=%d\n", m.n, dels,
                missing_dels, resets, replaces);
    /* the mix really exercised every path */
    CHECK(dels > 1000 && missing_dels > 50 && resets > 1000 && replaces > 1000);
    CHECK(m.n > 500); /* the object stayed large */

    /* dup keeps the order; a change to the dup leaves the original as the model says */
    CHECK_RC(MPI_Info_dup(info, &d), MPI_SUCCESS);
    CHECK(matches(d, &m, "large dup"));
    if (m.n > 2) {
        snprintf(key, sizeof key, "%s", m.k[1]);
        CHECK_RC(MPI_Info_delete(d, key), MPI_SUCCESS);
        CHECK_RC(MPI_Info_set(d, key, "moved"), MPI_SUCCESS);
        CHECK(matches(info, &m, "large original after dup changed"));
        model_delete(&m, key);
        model_set(&m, key, "moved");
        CHECK(matches(d, &m, "large dup after change"));
    }
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    model_free(&m);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    test_small();
    test_sizes();
    test_large_random();
    return check_report();
}
