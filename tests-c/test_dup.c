/* test_dup.c - MPI_Info_dup (docs/reference.md, "MPI_Info_dup" and "Order"): the copy and the
 * source are independent both ways (set, replace, delete, free in either leaves the other as it
 * was), dup of an empty object, of a dup, chains of dups with a change at each level, dup of
 * MPI_INFO_ENV gives an ordinary writable object, the new handle differs from the source, large
 * objects dup'd and each copy modified. Every object is compared in full (order and values) with a
 * model. */
#include "support.h"

#include <limits.h>

/* In test_env()'s model of MPI_INFO_ENV, a pair whose key has MK characters or more or
 * whose value has MV or more gets the value "<long>", which is not compared. */
#define MK 32
#define MV 40

/* Apply to both the object and the model; 1 if the call succeeded. */
static int do_set(MPI_Info info, model *m, const char *key, const char *val) {
    model_set(m, key, val);
    return MPI_Info_set(info, key, val) == MPI_SUCCESS;
}
static int do_delete(MPI_Info info, model *m, const char *key) {
    model_delete(m, key);
    return MPI_Info_delete(info, key) == MPI_SUCCESS;
}

/* 1 if info holds exactly the model's pairs in the model's order. */
static int matches(MPI_Info info, const model *m, const char *what) {
    int n = -1;
    char key[MPI_MAX_INFO_KEY], val[MPI_MAX_INFO_VAL];
    if (MPI_Info_get_nkeys(info, &n) != MPI_SUCCESS || n != m->n) {
        fprintf(stderr, "%s: nkeys %d, model %d\n", what, n, m->n);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        int flag = -1, vlen = -1;
        if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS || strcmp(key, m->k[i]) != 0) {
            fprintf(stderr, "%s: nthkey(%d) = \"%s\", model \"%s\"\n", what, i, key, m->k[i]);
            return 0;
        }
        if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, val, &flag) != MPI_SUCCESS ||
            flag != 1 || strcmp(val, m->v[i]) != 0) {
            fprintf(stderr, "%s: value of \"%s\" is \"%s\", model \"%s\"\n", what, key,
                    flag == 1 ? val : "<missing>", m->v[i]);
            return 0;
        }
        if (MPI_Info_get_valuelen(info, key, &vlen, &flag) != MPI_SUCCESS || flag != 1 ||
            vlen != (int)strlen(m->v[i])) {
            fprintf(stderr, "%s: valuelen of \"%s\" wrong\n", what, key);
            return 0;
        }
    }
    return 1;
}

static int lacks(MPI_Info info, const char *key) {
    char buf[16];
    int flag = 3;
    fill_sentinel(buf, sizeof buf);
    return MPI_Info_get(info, key, (int)sizeof buf - 1, buf, &flag) == MPI_SUCCESS &&
           flag == 0 && untouched(buf, 0, sizeof buf);
}

static int nkeys(MPI_Info info) {
    int n = -1;
    if (MPI_Info_get_nkeys(info, &n) != MPI_SUCCESS) return -1;
    return n;
}

static void test_basic_independence(void) {
    MPI_Info o = MPI_INFO_NULL, d = MPI_INFO_NULL;
    model mo, md;
    model_init(&mo, 16);
    CHECK_RC(MPI_Info_create(&o), MPI_SUCCESS);
    CHECK(do_set(o, &mo, "a", "1"));
    CHECK(do_set(o, &mo, "b", "2"));
    CHECK(do_set(o, &mo, "c", "3"));

    d = o; /* must be overwritten */
    CHECK_RC(MPI_Info_dup(o, &d), MPI_SUCCESS);
    CHECK(d != o);
    CHECK(d != MPI_INFO_NULL && d != MPI_INFO_ENV);
    CHECK(MPI_Info_toint(d) >= 4096); /* "Handles": created handles are at least 4096 */
    CHECK(matches(d, &mo, "fresh dup"));
    CHECK(matches(o, &mo, "source after dup"));
    model_copy(&md, &mo, 16);

    /* change the dup: the original stays */
    CHECK(do_set(d, &md, "a", "changed-in-dup"));
    CHECK(do_set(d, &md, "new", "only-in-dup"));
    CHECK(do_delete(d, &md, "b"));
    CHECK(matches(d, &md, "dup after its changes"));
    CHECK(matches(o, &mo, "original after dup changed"));
    CHECK(lacks(o, "new"));

    /* change the original: the dup stays */
    CHECK(do_set(o, &mo, "c", "changed-in-orig"));
    CHECK(do_set(o, &mo, "orig-only", "x"));
    CHECK(do_delete(o, &mo, "a"));
    CHECK(matches(o, &mo, "original after its changes"));
    CHECK(matches(d, &md, "dup after original changed"));
    CHECK(lacks(d, "orig-only"));

    /* a key deleted in one is still in the other: delete it there too */
    CHECK_RC(MPI_Info_delete(o, "b"), MPI_SUCCESS); /* b was deleted only in d */
    model_delete(&mo, "b");
    CHECK_RC(MPI_Info_delete(d, "b"), MPI_ERR_INFO_NOKEY);
    CHECK_RC(MPI_Info_delete(o, "new"), MPI_ERR_INFO_NOKEY);
    CHECK(matches(o, &mo, "original after delete"));
    CHECK(matches(d, &md, "dup after delete in original"));

    /* free the original: the dup is fully readable and writable */
    CHECK_RC(MPI_Info_free(&o), MPI_SUCCESS);
    CHECK(matches(d, &md, "dup after original freed"));
    CHECK(do_set(d, &md, "after-free", "ok"));
    CHECK(matches(d, &md, "dup written after original freed"));
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    model_free(&mo);
    model_free(&md);

    /* and the other way: free the dup first, without any change in between */
    model_init(&mo, 8);
    CHECK_RC(MPI_Info_create(&o), MPI_SUCCESS);
    CHECK(do_set(o, &mo, "x", "10"));
    CHECK(do_set(o, &mo, "y", "20"));
    CHECK_RC(MPI_Info_dup(o, &d), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    CHECK(d == MPI_INFO_NULL);
    CHECK(matches(o, &mo, "original after unchanged dup freed"));
    CHECK(do_set(o, &mo, "x", "11"));
    CHECK(do_delete(o, &mo, "y"));
    CHECK(matches(o, &mo, "original written after dup freed"));
    /* free the original without a change since the dup: dup intact */
    CHECK_RC(MPI_Info_dup(o, &d), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&o), MPI_SUCCESS);
    CHECK(matches(d, &mo, "dup after unchanged original freed"));
    CHECK(do_set(d, &mo, "z", "30"));
    CHECK(matches(d, &mo, "dup written after unchanged original freed"));
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    model_free(&mo);
}

static void test_empty_and_handles(void) {
    MPI_Info e = MPI_INFO_NULL, d = MPI_INFO_NULL, d2 = MPI_INFO_NULL, dead = MPI_INFO_NULL;
    char key[MPI_MAX_INFO_KEY];
    CHECK_RC(MPI_Info_create(&e), MPI_SUCCESS);
    CHECK_RC(MPI_Info_dup(e, &d), MPI_SUCCESS);
    CHECK(d != e);
    CHECK(nkeys(d) == 0);
    fill_sentinel(key, sizeof key);
    CHECK_RC(MPI_Info_get_nthkey(d, 0, key), MPI_ERR_ARG);
    CHECK(untouched(key, 0, sizeof key));
    CHECK_RC(MPI_Info_set(d, "k", "v"), MPI_SUCCESS);
    CHECK(nkeys(d) == 1);
    CHECK(nkeys(e) == 0);
    CHECK(lacks(e, "k"));
    CHECK_RC(MPI_Info_set(e, "other", "v"), MPI_SUCCESS);
    CHECK(lacks(d, "other"));
    CHECK(nkeys(d) == 1);

    /* two dups of one source: three different handles */
    CHECK_RC(MPI_Info_dup(e, &d2), MPI_SUCCESS);
    CHECK(d2 != e && d2 != d);
    CHECK(nkeys(d2) == 1 && lacks(d2, "k"));

    /* errors: nothing written */
    {
        MPI_Info out = MPI_Info_fromint(12345);
        CHECK_RC(MPI_Info_dup(MPI_INFO_NULL, &out), MPI_ERR_INFO);
        CHECK(out == MPI_Info_fromint(12345));
        CHECK_RC(MPI_Info_create(&dead), MPI_SUCCESS);
        MPI_Info tmp = dead;
        CHECK_RC(MPI_Info_free(&tmp), MPI_SUCCESS);
        CHECK_RC(MPI_Info_dup(dead, &out), MPI_ERR_INFO);
        CHECK_RC(MPI_Info_dup(MPI_Info_fromint(0), &out), MPI_ERR_INFO);
        CHECK_RC(MPI_Info_dup(MPI_Info_fromint(-1), &out), MPI_ERR_INFO);
        CHECK(out == MPI_Info_fromint(12345));
        CHECK_RC(MPI_Info_dup(e, NULL), MPI_ERR_ARG);
        CHECK_RC(MPI_Info_dup(MPI_INFO_NULL, NULL), MPI_ERR_INFO);
        CHECK(nkeys(e) == 1);
    }
    /* the new handle is written to exactly sizeof(MPI_Info) bytes at the guard */
    {
        MPI_Info *ph = (MPI_Info *)(void *)guarded_end(sizeof(MPI_Info));
        CHECK_RC(MPI_Info_dup(e, ph), MPI_SUCCESS);
        CHECK(*ph != e && *ph != d && *ph != d2);
        CHECK(nkeys(*ph) == 1);
        CHECK_RC(MPI_Info_free(ph), MPI_SUCCESS);
    }
    CHECK_RC(MPI_Info_free(&d2), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&e), MPI_SUCCESS);
}

/* dup of a dup, and a chain of dups with a change at each level. */
static void test_chains(void) {
    enum { LEVELS = 12 };
    MPI_Info h[LEVELS];
    model m[LEVELS];
    char key[32], val[32], what[64];

    /* dup of a dup of an unchanged object */
    {
        MPI_Info o = MPI_INFO_NULL, d1 = MPI_INFO_NULL, d2 = MPI_INFO_NULL;
        model mo, m1;
        model_init(&mo, 8);
        CHECK_RC(MPI_Info_create(&o), MPI_SUCCESS);
        CHECK(do_set(o, &mo, "p", "1"));
        CHECK(do_set(o, &mo, "q", "2"));
        CHECK_RC(MPI_Info_dup(o, &d1), MPI_SUCCESS);
        CHECK_RC(MPI_Info_dup(d1, &d2), MPI_SUCCESS);
        CHECK(d2 != d1 && d2 != o);
        CHECK(matches(d2, &mo, "dup of dup"));
        model_copy(&m1, &mo, 8);
        CHECK(do_set(d1, &m1, "p", "mid"));
        CHECK(do_set(d1, &m1, "r", "3"));
        CHECK(matches(d1, &m1, "middle after change"));
        CHECK(matches(d2, &mo, "dup of dup after middle changed"));
        CHECK(matches(o, &mo, "root after middle changed"));
        CHECK_RC(MPI_Info_free(&d1), MPI_SUCCESS);
        CHECK(matches(d2, &mo, "dup of dup after middle freed"));
        CHECK(matches(o, &mo, "root after middle freed"));
        CHECK_RC(MPI_Info_free(&o), MPI_SUCCESS);
        CHECK(matches(d2, &mo, "dup of dup after root freed"));
        CHECK_RC(MPI_Info_free(&d2), MPI_SUCCESS);
        model_free(&mo);
        model_free(&m1);
    }

    /* chain: level i = dup of level i-1, then set "level", add "k<i>", replace "k<i-1>",
     * delete "k<i-2>" */
    model_init(&m[0], 64);
    CHECK_RC(MPI_Info_create(&h[0]), MPI_SUCCESS);
    CHECK(do_set(h[0], &m[0], "level", "0"));
    CHECK(do_set(h[0], &m[0], "k0", "v0"));
    CHECK(do_set(h[0], &m[0], "fixed", "f"));
    for (int i = 1; i < LEVELS; i++) {
        int ok = 1;
        CHECK_RC(MPI_Info_dup(h[i - 1], &h[i]), MPI_SUCCESS);
        model_copy(&m[i], &m[i - 1], 64);
        snprintf(what, sizeof what, "chain level %d fresh", i);
        CHECK(matches(h[i], &m[i], what));
        snprintf(val, sizeof val, "%d", i);
        ok &= do_set(h[i], &m[i], "level", val);
        snprintf(key, sizeof key, "k%d", i);
        snprintf(val, sizeof val, "v%d", i);
        ok &= do_set(h[i], &m[i], key, val);
        snprintf(key, sizeof key, "k%d", i - 1);
        snprintf(val, sizeof val, "replaced-at-%d", i);
        ok &= do_set(h[i], &m[i], key, val);
        if (i >= 2) {
            snprintf(key, sizeof key, "k%d", i - 2);
            ok &= do_delete(h[i], &m[i], key);
        }
        CHECK(ok);
        ok = 1;
        for (int j = 0; j < i; j++) ok &= h[j] != h[i];
        CHECK(ok); /* a new handle, different from every live level */
    }
    {
        int ok = 1;
        for (int i = 0; i < LEVELS; i++) {
            snprintf(what, sizeof what, "chain level %d", i);
            ok &= matches(h[i], &m[i], what);
        }
        CHECK(ok);
    }
    /* change the root and a middle level after the chain is built */
    CHECK(do_set(h[0], &m[0], "fixed", "root-changed"));
    CHECK(do_delete(h[5], &m[5], "fixed"));
    {
        int ok = 1;
        for (int i = 0; i < LEVELS; i++) {
            snprintf(what, sizeof what, "chain level %d after root/middle change", i);
            ok &= matches(h[i], &m[i], what);
        }
        CHECK(ok);
    }
    /* free the even levels (root first); the odd ones stay intact */
    for (int i = 0; i < LEVELS; i += 2) CHECK_RC(MPI_Info_free(&h[i]), MPI_SUCCESS);
    {
        int ok = 1;
        for (int i = 1; i < LEVELS; i += 2) {
            snprintf(what, sizeof what, "chain level %d after evens freed", i);
            ok &= matches(h[i], &m[i], what);
        }
        CHECK(ok);
    }
    for (int i = 1; i < LEVELS; i += 2) CHECK_RC(MPI_Info_free(&h[i]), MPI_SUCCESS);
    for (int i = 0; i < LEVELS; i++) model_free(&m[i]);
}

static void test_env(void) {
    MPI_Info d = MPI_INFO_NULL, d2 = MPI_INFO_NULL;
    model env;
    char key[MPI_MAX_INFO_KEY], val[MPI_MAX_INFO_VAL];
    int n = nkeys(MPI_INFO_ENV);
    /* maxprocs, soft, thread_level are always known ("MPI_INFO_ENV and MPI_Info_create_env") */
    CHECK(n >= 3);
    /* model of MPI_INFO_ENV as it is now (values may be long: keep them in full below) */
    model_init(&env, 32);
    {
        int ok = n >= 0 && n <= 32;
        for (int i = 0; ok && i < n; i++) {
            int flag = 0;
            if (MPI_Info_get_nthkey(MPI_INFO_ENV, i, key) != MPI_SUCCESS) ok = 0;
            if (MPI_Info_get(MPI_INFO_ENV, key, MPI_MAX_INFO_VAL - 1, val, &flag) != MPI_SUCCESS ||
                flag != 1)
                ok = 0;
            /* long values (wdir, command) are kept only as a marker, not compared */
            if (strlen(key) >= MK || strlen(val) >= MV) {
                model_set(&env, key, "<long>");
            } else {
                model_set(&env, key, val);
            }
        }
        CHECK(ok);
    }

    CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &d), MPI_SUCCESS);
    CHECK(d != MPI_INFO_ENV && d != MPI_INFO_NULL);
    CHECK(nkeys(d) == n);
    /* same pairs, same order, every value byte-identical */
    {
        int ok = 1;
        char v2[MPI_MAX_INFO_VAL];
        for (int i = 0; i < n; i++) {
            char k2[MPI_MAX_INFO_KEY];
            int f1 = 0, f2 = 0;
            if (MPI_Info_get_nthkey(MPI_INFO_ENV, i, key) != MPI_SUCCESS) ok = 0;
            if (MPI_Info_get_nthkey(d, i, k2) != MPI_SUCCESS || strcmp(key, k2) != 0) ok = 0;
            if (MPI_Info_get(MPI_INFO_ENV, key, MPI_MAX_INFO_VAL - 1, val, &f1) != MPI_SUCCESS)
                ok = 0;
            if (MPI_Info_get(d, key, MPI_MAX_INFO_VAL - 1, v2, &f2) != MPI_SUCCESS) ok = 0;
            if (f1 != 1 || f2 != 1 || strcmp(val, v2) != 0) ok = 0;
        }
        CHECK(ok);
    }
    /* ordinary and writable */
    CHECK_RC(MPI_Info_set(d, "user", "added"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(d, "maxprocs", "64"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(d, "soft"), MPI_SUCCESS);
    CHECK(nkeys(d) == n);
    CHECK(lacks(d, "soft"));
    {
        char b[8];
        int f = 0;
        CHECK_RC(MPI_Info_get(d, "maxprocs", 7, b, &f), MPI_SUCCESS);
        CHECK(f == 1 && strcmp(b, "64") == 0);
    }
    /* a dup of the writable copy is ordinary too */
    CHECK_RC(MPI_Info_dup(d, &d2), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(d2, "soft", "back"), MPI_SUCCESS);
    CHECK(lacks(d, "soft"));
    CHECK(nkeys(d2) == n + 1);
    CHECK_RC(MPI_Info_free(&d2), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    CHECK(d == MPI_INFO_NULL);

    /* MPI_INFO_ENV itself unchanged and still not writable or freeable */
    {
        int ok = nkeys(MPI_INFO_ENV) == env.n;
        for (int i = 0; ok && i < env.n; i++) {
            int flag = 0;
            if (MPI_Info_get_nthkey(MPI_INFO_ENV, i, key) != MPI_SUCCESS ||
                strcmp(key, env.k[i]) != 0)
                ok = 0;
            else if (MPI_Info_get(MPI_INFO_ENV, key, MPI_MAX_INFO_VAL - 1, val, &flag) !=
                         MPI_SUCCESS ||
                     flag != 1)
                ok = 0;
            else if (strcmp(env.v[i], "<long>") != 0 && strcmp(val, env.v[i]) != 0)
                ok = 0;
        }
        CHECK(ok);
    }
    CHECK(lacks(MPI_INFO_ENV, "user"));
    {
        char b[8];
        int f = 0;
        CHECK_RC(MPI_Info_get(MPI_INFO_ENV, "maxprocs", 7, b, &f), MPI_SUCCESS);
        CHECK(f == 1 && strcmp(b, "1") == 0);
        f = 0;
        CHECK_RC(MPI_Info_get(MPI_INFO_ENV, "soft", 7, b, &f), MPI_SUCCESS);
        CHECK(f == 1 && strcmp(b, "1") == 0);
    }
    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, "user", "x"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_delete(MPI_INFO_ENV, "soft"), MPI_ERR_INFO);
    {
        MPI_Info e = MPI_INFO_ENV;
        CHECK_RC(MPI_Info_free(&e), MPI_ERR_INFO);
        CHECK(e == MPI_INFO_ENV);
    }
    CHECK(nkeys(MPI_INFO_ENV) == n);
    /* dup of ENV twice: two different ordinary objects */
    CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &d), MPI_SUCCESS);
    CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &d2), MPI_SUCCESS);
    CHECK(d != d2);
    CHECK_RC(MPI_Info_delete(d, "maxprocs"), MPI_SUCCESS);
    CHECK(nkeys(d2) == n);
    CHECK(nkeys(d) == n - 1);
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&d2), MPI_SUCCESS);
    model_free(&env);
}

/* 4096 keys: the source and two dups, each modified differently. */
static void test_large(void) {
    enum { N = 4096 };
    MPI_Info o = MPI_INFO_NULL, d1 = MPI_INFO_NULL, d2 = MPI_INFO_NULL, d3 = MPI_INFO_NULL;
    model mo, m1, m2, m3;
    char key[32], val[40];
    int ok;
    model_init(&mo, N + 200);
    CHECK_RC(MPI_Info_create(&o), MPI_SUCCESS);
    ok = 1;
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "big.%d", (i * 2741) % N); /* scrambled, distinct */
        snprintf(val, sizeof val, "val-%d", i);
        ok &= do_set(o, &mo, key, val);
    }
    CHECK(ok);
    CHECK(nkeys(o) == N);
    CHECK_RC(MPI_Info_dup(o, &d1), MPI_SUCCESS);
    CHECK_RC(MPI_Info_dup(o, &d2), MPI_SUCCESS);
    CHECK(d1 != o && d2 != o && d1 != d2);
    CHECK(matches(d1, &mo, "large d1 fresh"));
    CHECK(matches(d2, &mo, "large d2 fresh"));
    model_copy(&m1, &mo, N + 200);
    model_copy(&m2, &mo, N + 200);

    /* source: replace every third value */
    ok = 1;
    for (int i = 0; i < N; i += 3) {
        snprintf(key, sizeof key, "%s", mo.k[i]);
        snprintf(val, sizeof val, "orig-rep-%d", i);
        ok &= do_set(o, &mo, key, val);
    }
    CHECK(ok);
    /* d1: delete every fifth key (by position in the original order) */
    ok = 1;
    for (int i = 0; i < N; i += 5) {
        snprintf(key, sizeof key, "big.%d", (i * 2741) % N);
        ok &= do_delete(d1, &m1, key);
    }
    CHECK(ok);
    /* d2: add 150 keys and replace the first and last */
    ok = 1;
    for (int i = 0; i < 150; i++) {
        snprintf(key, sizeof key, "extra.%d", i);
        ok &= do_set(d2, &m2, key, "e");
    }
    snprintf(key, sizeof key, "%s", m2.k[0]);
    ok &= do_set(d2, &m2, key, "first");
    snprintf(key, sizeof key, "%s", m2.k[N - 1]);
    ok &= do_set(d2, &m2, key, "last");
    CHECK(ok);

    CHECK(matches(o, &mo, "large source modified"));
    CHECK(matches(d1, &m1, "large d1 modified"));
    CHECK(matches(d2, &m2, "large d2 modified"));
    CHECK(nkeys(d1) == N - (N + 4) / 5);
    CHECK(nkeys(d2) == N + 150);

    /* dup of a modified dup, then free the source: the rest intact */
    CHECK_RC(MPI_Info_dup(d1, &d3), MPI_SUCCESS);
    model_copy(&m3, &m1, N + 200);
    CHECK_RC(MPI_Info_free(&o), MPI_SUCCESS);
    snprintf(key, sizeof key, "%s", m1.k[10]);
    CHECK(do_delete(d1, &m1, key));
    CHECK(do_set(d3, &m3, "d3-only", "x"));
    CHECK(matches(d1, &m1, "large d1 after source freed"));
    CHECK(matches(d2, &m2, "large d2 after source freed"));
    CHECK(matches(d3, &m3, "large d3 (dup of modified d1)"));
    CHECK(!lacks(d3, key));
    CHECK(lacks(d1, key));
    CHECK(lacks(d1, "d3-only"));
    CHECK_RC(MPI_Info_free(&d1), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&d2), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&d3), MPI_SUCCESS);
    model_free(&mo);
    model_free(&m1);
    model_free(&m2);
    model_free(&m3);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    test_basic_independence();
    test_empty_and_handles();
    test_chains();
    test_env();
    test_large();
    return check_report();
}
