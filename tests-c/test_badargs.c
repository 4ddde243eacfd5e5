/* test_badargs.c - every bad argument of every function, with its exact error class
 * (docs/reference.md, "Rules every function follows" and each function's errors under
 * "Functions"; "MPI_Info_create_env" for its arguments).
 *
 * Each failing call is made through a try_* helper that pre-fills every output with a
 * sentinel (0xA5 bytes for buffers, 0x5A5A5A5A for ints and handles) and records in `out_ok`
 * whether all of them are still untouched afterwards. FAILS(call, class) then checks the
 * exact class, that no output was written, and that no object changed: the full contents
 * (nkeys, every nthkey, every value, in order) of the test objects and of MPI_INFO_ENV are
 * compared with a snapshot taken before any bad call.
 *
 * Precedence (docs/reference.md, "Rules every function follows": left to right, the first
 * bad argument decides, all arguments are checked before any lookup) is tested by combining
 * several bad arguments. */
#include "support.h"

#include <limits.h>

#define S32 0x5A5A5A5A
#define S32_HANDLE MPI_Info_fromint(S32)

/* ---------------------------------------------------------------- snapshots */

struct snap {
    MPI_Info h;
    char *d;
    size_t len;
};

/* The objects whose contents must never change: A (several pairs), E (empty), ENV. */
static MPI_Info A = MPI_INFO_NULL, E = MPI_INFO_NULL;
static struct snap snaps[3];
static int nsnaps;

static void take_snap(MPI_Info h) {
    snaps[nsnaps].h = h;
    snaps[nsnaps].d = dump(h, &snaps[nsnaps].len);
    nsnaps++;
}

static int all_unchanged(void) {
    int ok = 1;
    for (int i = 0; i < nsnaps; i++) {
        if (!same_as(snaps[i].h, snaps[i].d, snaps[i].len)) {
            fprintf(stderr, "  object %d changed\n", MPI_Info_toint(snaps[i].h));
            ok = 0;
        }
    }
    return ok;
}

/* ---------------------------------------------------------------- try_* helpers */

/* 1 if every output of the last try_* call still holds its sentinel. */
static int out_ok;

#define BUFSZ (MPI_MAX_INFO_VAL + 64)

static int try_set(MPI_Info h, const char *k, const char *v) {
    out_ok = 1;
    return MPI_Info_set(h, k, v);
}

static int try_delete(MPI_Info h, const char *k) {
    out_ok = 1;
    return MPI_Info_delete(h, k);
}

/* null_value / null_flag: pass NULL for that output instead of a buffer. */
static int try_get(MPI_Info h, const char *k, int valuelen, int null_value, int null_flag) {
    char buf[BUFSZ];
    int flag = S32;
    fill_sentinel(buf, sizeof buf);
    int rc = MPI_Info_get(h, k, valuelen, null_value ? NULL : buf, null_flag ? NULL : &flag);
    out_ok = untouched(buf, 0, sizeof buf) && flag == S32;
    return rc;
}

static int try_valuelen(MPI_Info h, const char *k, int null_valuelen, int null_flag) {
    int vl = S32, flag = S32;
    int rc = MPI_Info_get_valuelen(h, k, null_valuelen ? NULL : &vl, null_flag ? NULL : &flag);
    out_ok = vl == S32 && flag == S32;
    return rc;
}

static int try_string(MPI_Info h, const char *k, int buflen, int null_buflen, int null_value,
                      int null_flag) {
    char buf[BUFSZ];
    int bl = buflen, flag = S32;
    fill_sentinel(buf, sizeof buf);
    int rc = MPI_Info_get_string(h, k, null_buflen ? NULL : &bl, null_value ? NULL : buf,
                                 null_flag ? NULL : &flag);
    out_ok = untouched(buf, 0, sizeof buf) && flag == S32 && bl == buflen;
    return rc;
}

static int try_nkeys(MPI_Info h, int null_nkeys) {
    int n = S32;
    int rc = MPI_Info_get_nkeys(h, null_nkeys ? NULL : &n);
    out_ok = n == S32;
    return rc;
}

static int try_nthkey(MPI_Info h, int n, int null_key) {
    char key[MPI_MAX_INFO_KEY + 64];
    fill_sentinel(key, sizeof key);
    int rc = MPI_Info_get_nthkey(h, n, null_key ? NULL : key);
    out_ok = untouched(key, 0, sizeof key);
    return rc;
}

static int try_dup(MPI_Info h, int null_new) {
    MPI_Info nw = S32_HANDLE;
    int rc = MPI_Info_dup(h, null_new ? NULL : &nw);
    out_ok = nw == S32_HANDLE;
    if (rc == MPI_SUCCESS && nw != S32_HANDLE) MPI_Info_free(&nw); /* unexpected: don't leak */
    return rc;
}

static int try_free(MPI_Info h, int null_ptr) {
    MPI_Info c = h;
    int rc = MPI_Info_free(null_ptr ? NULL : &c);
    out_ok = c == h;
    return rc;
}

static int try_create_env(int argc, char **argv, int null_info) {
    MPI_Info nw = S32_HANDLE;
    int rc = MPI_Info_create_env(argc, argv, null_info ? NULL : &nw);
    out_ok = nw == S32_HANDLE;
    if (rc == MPI_SUCCESS && nw != S32_HANDLE) MPI_Info_free(&nw);
    return rc;
}

static int try_error_string(int code, int null_string, int null_len) {
    char buf[MPI_MAX_ERROR_STRING + 16];
    int len = S32;
    fill_sentinel(buf, sizeof buf);
    int rc = MPI_Error_string(code, null_string ? NULL : buf, null_len ? NULL : &len);
    out_ok = untouched(buf, 0, sizeof buf) && len == S32;
    return rc;
}

static int try_error_class(int code, int null_class) {
    int cls = S32;
    int rc = MPI_Error_class(code, null_class ? NULL : &cls);
    out_ok = cls == S32;
    return rc;
}

/* The call returns exactly `expected`, wrote no output, and changed no object. */
#define FAILS(call, expected)                                                            \
    do {                                                                                 \
        CHECK_RC(call, expected);                                                        \
        CHECK(out_ok);                                                                   \
        CHECK(all_unchanged());                                                          \
    } while (0)

/* Context for failures inside loops. */
static const char *ctx = "";
static int ctx_val;
static int fails_before;
#define CTX_BEGIN(name, val) (ctx = (name), ctx_val = (val), fails_before = check_failed_count)
#define CTX_END()                                                                        \
    do {                                                                                 \
        if (check_failed_count != fails_before)                                          \
            fprintf(stderr, "  (the failures above were with %s = %d)\n", ctx, ctx_val); \
    } while (0)

/* ---------------------------------------------------------------- fixtures */

static char *k255, *k256, *k1000, *v1023, *v1024, *v5000;
/* Unterminated strings ending at a guard page: 256 key bytes, 1024 value bytes, no NUL. */
static char *k_unterminated, *v_unterminated;

static void setup(void) {
    k255 = repeat('k', 255);
    k256 = repeat('k', 256); /* its first 255 characters are the key k255, which A holds */
    k1000 = repeat('K', 1000);
    v1023 = repeat('v', 1023);
    v1024 = repeat('v', 1024);
    v5000 = repeat('w', 5000);
    k_unterminated = guarded_end(MPI_MAX_INFO_KEY);
    memset(k_unterminated, 'k', MPI_MAX_INFO_KEY);
    v_unterminated = guarded_end(MPI_MAX_INFO_VAL);
    memset(v_unterminated, 'v', MPI_MAX_INFO_VAL);

    if (MPI_Info_create(&A) != MPI_SUCCESS || MPI_Info_create(&E) != MPI_SUCCESS) {
        fprintf(stderr, "setup: MPI_Info_create failed\n");
        exit(2);
    }
    if (MPI_Info_set(A, "alpha", "1") != MPI_SUCCESS ||
        MPI_Info_set(A, "beta", "") != MPI_SUCCESS ||
        MPI_Info_set(A, "gamma", v1023) != MPI_SUCCESS ||
        MPI_Info_set(A, k255, "long key") != MPI_SUCCESS ||
        MPI_Info_set(A, "key with space", "x y") != MPI_SUCCESS) {
        fprintf(stderr, "setup: MPI_Info_set failed\n");
        exit(2);
    }
    take_snap(A);
    take_snap(E);
    take_snap(MPI_INFO_ENV);
}

#define A_NKEYS 5

static void teardown(void) {
    CHECK_RC(MPI_Info_free(&A), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&E), MPI_SUCCESS);
    for (int i = 0; i < nsnaps; i++) free(snaps[i].d);
    free(k255);
    free(k256);
    free(k1000);
    free(v1023);
    free(v1024);
    free(v5000);
}

/* A handle that was live and is now freed. */
static MPI_Info freed_handle(void) {
    MPI_Info h = MPI_INFO_NULL;
    if (MPI_Info_create(&h) != MPI_SUCCESS || MPI_Info_set(h, "alpha", "dead") != MPI_SUCCESS) {
        fprintf(stderr, "freed_handle: setup failed\n");
        exit(2);
    }
    MPI_Info keep = h;
    CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
    CHECK(h == MPI_INFO_NULL);
    return keep;
}

/* ---------------------------------------------------------------- invalid handles */

/* Every function, otherwise valid arguments, handle `h` not a live object: MPI_ERR_INFO. */
static void bad_handle_everywhere(MPI_Info h) {
    FAILS(try_set(h, "alpha", "new"), MPI_ERR_INFO);
    FAILS(try_set(h, "newkey", "v"), MPI_ERR_INFO);
    FAILS(try_set(h, "newkey", ""), MPI_ERR_INFO);
    FAILS(try_delete(h, "alpha"), MPI_ERR_INFO);
    FAILS(try_delete(h, "missing"), MPI_ERR_INFO); /* not NOKEY: the handle is checked first */
    FAILS(try_get(h, "alpha", 100, 0, 0), MPI_ERR_INFO);
    FAILS(try_get(h, "missing", 100, 0, 0), MPI_ERR_INFO);
    FAILS(try_get(h, "alpha", 0, 0, 0), MPI_ERR_INFO);
    FAILS(try_valuelen(h, "alpha", 0, 0), MPI_ERR_INFO);
    FAILS(try_valuelen(h, "missing", 0, 0), MPI_ERR_INFO);
    FAILS(try_string(h, "alpha", 100, 0, 0, 0), MPI_ERR_INFO);
    FAILS(try_string(h, "missing", 100, 0, 0, 0), MPI_ERR_INFO);
    FAILS(try_string(h, "alpha", 0, 0, 1, 0), MPI_ERR_INFO);
    FAILS(try_nkeys(h, 0), MPI_ERR_INFO);
    FAILS(try_nthkey(h, 0, 0), MPI_ERR_INFO);
    FAILS(try_dup(h, 0), MPI_ERR_INFO);
    FAILS(try_free(h, 0), MPI_ERR_INFO);

    /* Precedence: the handle is the first argument, so it decides even when every other
     * argument is bad too. */
    FAILS(try_set(h, NULL, NULL), MPI_ERR_INFO);
    FAILS(try_set(h, "", v1024), MPI_ERR_INFO);
    FAILS(try_set(h, k256, "v"), MPI_ERR_INFO);
    FAILS(try_set(h, "k", NULL), MPI_ERR_INFO);
    FAILS(try_delete(h, NULL), MPI_ERR_INFO);
    FAILS(try_delete(h, ""), MPI_ERR_INFO);
    FAILS(try_get(h, NULL, -1, 1, 1), MPI_ERR_INFO);
    FAILS(try_get(h, "", 100, 0, 0), MPI_ERR_INFO);
    FAILS(try_get(h, "alpha", -1, 0, 0), MPI_ERR_INFO);
    FAILS(try_get(h, "alpha", 100, 1, 0), MPI_ERR_INFO);
    FAILS(try_get(h, "alpha", 100, 0, 1), MPI_ERR_INFO);
    FAILS(try_valuelen(h, NULL, 1, 1), MPI_ERR_INFO);
    FAILS(try_valuelen(h, "alpha", 1, 0), MPI_ERR_INFO);
    FAILS(try_valuelen(h, "alpha", 0, 1), MPI_ERR_INFO);
    FAILS(try_string(h, NULL, 0, 1, 1, 1), MPI_ERR_INFO);
    FAILS(try_string(h, k256, -1, 0, 1, 1), MPI_ERR_INFO);
    FAILS(try_string(h, "alpha", -1, 0, 0, 0), MPI_ERR_INFO);
    FAILS(try_string(h, "alpha", 10, 0, 1, 0), MPI_ERR_INFO);
    FAILS(try_string(h, "alpha", 10, 0, 0, 1), MPI_ERR_INFO);
    FAILS(try_nkeys(h, 1), MPI_ERR_INFO);
    FAILS(try_nthkey(h, -1, 1), MPI_ERR_INFO);
    FAILS(try_nthkey(h, INT_MAX, 0), MPI_ERR_INFO);
    FAILS(try_dup(h, 1), MPI_ERR_INFO);
}

static void test_invalid_handles(void) {
    MPI_Info dead = freed_handle();
    MPI_Info dead_dup;
    {
        MPI_Info d = MPI_INFO_NULL;
        CHECK_RC(MPI_Info_dup(A, &d), MPI_SUCCESS);
        dead_dup = d;
        CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    }
    MPI_Info list[] = {MPI_INFO_NULL,
                       MPI_Info_fromint(0),
                       MPI_Info_fromint(-1),
                       MPI_Info_fromint(INT_MIN),
                       MPI_Info_fromint(INT_MAX),
                       dead,
                       dead_dup,
                       MPI_Info_fromint(0x2BADF00D),
                       MPI_Info_fromint(1),
                       MPI_Info_fromint(303),
                       MPI_Info_fromint(306),
                       MPI_Info_fromint(4095),
                       MPI_Info_fromint(4096),
                       MPI_Info_fromint(-305),
                       MPI_Info_fromint(1000000007)};
    const char *names[] = {"MPI_INFO_NULL", "0", "-1", "INT_MIN", "INT_MAX", "freed handle",
                           "freed dup", "random 0x2BADF00D", "1", "303", "306", "4095", "4096",
                           "-305", "1000000007"};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
        if (list[i] == A || list[i] == E) continue; /* a "random" value hit a live object */
        CTX_BEGIN(names[i], MPI_Info_toint(list[i]));
        bad_handle_everywhere(list[i]);
        CTX_END();
    }
    /* A few more pseudo-random values (fixed seed). */
    {
        unsigned int x = 2463534242u;
        for (int i = 0; i < 20; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            MPI_Info h = MPI_Info_fromint((int)x);
            if (h == A || h == E || h == MPI_INFO_ENV) continue;
            CTX_BEGIN("pseudo-random handle", MPI_Info_toint(h));
            FAILS(try_set(h, "alpha", "new"), MPI_ERR_INFO);
            FAILS(try_get(h, "alpha", 100, 0, 0), MPI_ERR_INFO);
            FAILS(try_nkeys(h, 0), MPI_ERR_INFO);
            FAILS(try_free(h, 0), MPI_ERR_INFO);
            CTX_END();
        }
    }
}

/* ---------------------------------------------------------------- MPI_INFO_ENV */

static void test_env(void) {
    const MPI_Info env = MPI_INFO_ENV;
    CTX_BEGIN("MPI_INFO_ENV", MPI_Info_toint(env));
    /* Functions that would modify it: MPI_ERR_INFO, whatever the other arguments. */
    FAILS(try_set(env, "newkey", "v"), MPI_ERR_INFO);
    FAILS(try_set(env, "maxprocs", "2"), MPI_ERR_INFO);
    FAILS(try_set(env, NULL, NULL), MPI_ERR_INFO);
    FAILS(try_set(env, "", v1024), MPI_ERR_INFO);
    FAILS(try_set(env, "k", NULL), MPI_ERR_INFO);
    FAILS(try_delete(env, "maxprocs"), MPI_ERR_INFO);
    FAILS(try_delete(env, "thread_level"), MPI_ERR_INFO);
    FAILS(try_delete(env, "missing"), MPI_ERR_INFO); /* not NOKEY */
    FAILS(try_delete(env, NULL), MPI_ERR_INFO);
    FAILS(try_delete(env, k256), MPI_ERR_INFO);
    FAILS(try_free(env, 0), MPI_ERR_INFO);
    CTX_END();

    /* Functions that only read it work. */
    {
        char buf[BUFSZ];
        int flag = S32, vl = S32, bl, n = S32;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(env, "maxprocs", 100, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(buf, "1") == 0 && untouched(buf, 2, sizeof buf));
        flag = S32;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(env, "no such key", 100, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 0 && untouched(buf, 0, sizeof buf));
        flag = S32;
        CHECK_RC(MPI_Info_get_valuelen(env, "soft", &vl, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && vl == 1);
        flag = S32;
        bl = 100;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get_string(env, "thread_level", &bl, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && bl == 20 && strcmp(buf, "MPI_THREAD_MULTIPLE") == 0 &&
              untouched(buf, 20, sizeof buf));
        flag = S32;
        bl = 0;
        CHECK_RC(MPI_Info_get_string(env, "thread_level", &bl, NULL, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && bl == 20);
        CHECK_RC(MPI_Info_get_nkeys(env, &n), MPI_SUCCESS);
        CHECK(n >= 3 && n <= 8);
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get_nthkey(env, 0, buf), MPI_SUCCESS);
        CHECK(buf[0] != '\0' && strlen(buf) < MPI_MAX_INFO_KEY &&
              untouched(buf, strlen(buf) + 1, sizeof buf));
        if (n >= 1 && n <= 8) {
            fill_sentinel(buf, sizeof buf);
            CHECK_RC(MPI_Info_get_nthkey(env, n - 1, buf), MPI_SUCCESS);
            /* always last (docs/reference.md, "MPI_INFO_ENV and MPI_Info_create_env") */
            CHECK(strcmp(buf, "thread_level") == 0);
            CTX_BEGIN("MPI_INFO_ENV, n = nkeys", n);
            FAILS(try_nthkey(env, n, 0), MPI_ERR_ARG);
            CTX_END();
        }
        MPI_Info d = S32_HANDLE;
        CHECK_RC(MPI_Info_dup(env, &d), MPI_SUCCESS);
        CHECK(d != S32_HANDLE && d != MPI_INFO_ENV && d != MPI_INFO_NULL);
        int dn = -1;
        CHECK_RC(MPI_Info_get_nkeys(d, &dn), MPI_SUCCESS);
        CHECK(dn == n);
        CHECK_RC(MPI_Info_set(d, "maxprocs", "7"), MPI_SUCCESS); /* the dup is writable */
        CHECK_RC(MPI_Info_delete(d, "soft"), MPI_SUCCESS);
        CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
        CHECK(all_unchanged()); /* ENV itself did not change through its dup */
    }

    /* Bad arguments of the read functions on ENV: the usual classes. */
    CTX_BEGIN("MPI_INFO_ENV (read)", MPI_Info_toint(env));
    FAILS(try_get(env, NULL, 100, 0, 0), MPI_ERR_INFO_KEY);
    FAILS(try_get(env, "", 100, 0, 0), MPI_ERR_INFO_KEY);
    FAILS(try_get(env, "maxprocs", -1, 0, 0), MPI_ERR_ARG);
    FAILS(try_get(env, "maxprocs", 100, 1, 0), MPI_ERR_ARG);
    FAILS(try_get(env, "maxprocs", 100, 0, 1), MPI_ERR_ARG);
    FAILS(try_valuelen(env, k256, 0, 0), MPI_ERR_INFO_KEY);
    FAILS(try_valuelen(env, "soft", 1, 0), MPI_ERR_ARG);
    FAILS(try_string(env, "soft", -1, 0, 0, 0), MPI_ERR_ARG);
    FAILS(try_string(env, "soft", 5, 0, 1, 0), MPI_ERR_ARG);
    FAILS(try_nkeys(env, 1), MPI_ERR_ARG);
    FAILS(try_nthkey(env, -1, 0), MPI_ERR_ARG);
    FAILS(try_nthkey(env, 0, 1), MPI_ERR_ARG);
    FAILS(try_dup(env, 1), MPI_ERR_ARG);
    CTX_END();
}

/* ---------------------------------------------------------------- bad keys */

static void bad_keys_on(MPI_Info h) {
    const char *keys[] = {NULL, "", k256, k1000, k_unterminated};
    const char *names[] = {"NULL", "\"\"", "256 chars", "1000 chars", "256 unterminated"};
    for (int i = 0; i < 5; i++) {
        const char *k = keys[i];
        CTX_BEGIN(names[i], MPI_Info_toint(h));
        FAILS(try_set(h, k, "v"), MPI_ERR_INFO_KEY);
        FAILS(try_set(h, k, ""), MPI_ERR_INFO_KEY);
        FAILS(try_delete(h, k), MPI_ERR_INFO_KEY);
        FAILS(try_get(h, k, 100, 0, 0), MPI_ERR_INFO_KEY);
        FAILS(try_get(h, k, 0, 0, 0), MPI_ERR_INFO_KEY);
        FAILS(try_valuelen(h, k, 0, 0), MPI_ERR_INFO_KEY);
        FAILS(try_string(h, k, 100, 0, 0, 0), MPI_ERR_INFO_KEY);
        FAILS(try_string(h, k, 0, 0, 1, 0), MPI_ERR_INFO_KEY);

        /* Precedence: the key comes before the value and before every output. */
        FAILS(try_set(h, k, NULL), MPI_ERR_INFO_KEY);
        FAILS(try_set(h, k, v1024), MPI_ERR_INFO_KEY);
        FAILS(try_set(h, k, v_unterminated), MPI_ERR_INFO_KEY);
        FAILS(try_get(h, k, -1, 0, 0), MPI_ERR_INFO_KEY);
        FAILS(try_get(h, k, 100, 1, 0), MPI_ERR_INFO_KEY);
        FAILS(try_get(h, k, 100, 0, 1), MPI_ERR_INFO_KEY); /* bad key + NULL flag */
        FAILS(try_get(h, k, INT_MIN, 1, 1), MPI_ERR_INFO_KEY);
        FAILS(try_valuelen(h, k, 1, 0), MPI_ERR_INFO_KEY);
        FAILS(try_valuelen(h, k, 0, 1), MPI_ERR_INFO_KEY); /* bad key + NULL flag */
        FAILS(try_valuelen(h, k, 1, 1), MPI_ERR_INFO_KEY);
        FAILS(try_string(h, k, 0, 1, 0, 0), MPI_ERR_INFO_KEY);
        FAILS(try_string(h, k, -1, 0, 0, 0), MPI_ERR_INFO_KEY);
        FAILS(try_string(h, k, 10, 0, 1, 0), MPI_ERR_INFO_KEY);
        FAILS(try_string(h, k, 10, 0, 0, 1), MPI_ERR_INFO_KEY); /* bad key + NULL flag */
        FAILS(try_string(h, k, 0, 1, 1, 1), MPI_ERR_INFO_KEY);
        CTX_END();
    }
}

static void test_bad_keys(void) {
    bad_keys_on(A);
    bad_keys_on(E);

    /* The 255-character key is valid: found in A, missing in E (boundary next to k256). */
    {
        char buf[64];
        int flag = S32;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(A, k255, 60, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(buf, "long key") == 0);
        flag = S32;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(E, k255, 60, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 0 && untouched(buf, 0, sizeof buf));
        FAILS(try_delete(E, k255), MPI_ERR_INFO_NOKEY);
        FAILS(try_delete(E, "alpha"), MPI_ERR_INFO_NOKEY);
        FAILS(try_delete(A, "ALPHA"), MPI_ERR_INFO_NOKEY);
        FAILS(try_delete(A, "alph"), MPI_ERR_INFO_NOKEY);
    }
}

/* ---------------------------------------------------------------- bad values */

static void test_bad_values(void) {
    const char *vals[] = {NULL, v1024, v5000, v_unterminated};
    const char *names[] = {"NULL", "1024 chars", "5000 chars", "1024 unterminated"};
    for (int i = 0; i < 4; i++) {
        CTX_BEGIN(names[i], i);
        FAILS(try_set(A, "alpha", vals[i]), MPI_ERR_INFO_VALUE);  /* replace: old value kept */
        FAILS(try_set(A, "gamma", vals[i]), MPI_ERR_INFO_VALUE);
        FAILS(try_set(A, "newkey", vals[i]), MPI_ERR_INFO_VALUE); /* add: key not added */
        FAILS(try_set(A, k255, vals[i]), MPI_ERR_INFO_VALUE);
        FAILS(try_set(E, "newkey", vals[i]), MPI_ERR_INFO_VALUE);
        CTX_END();
    }

    /* Boundaries that are valid: the empty value and the 1023-character value. */
    {
        MPI_Info s = MPI_INFO_NULL;
        char buf[BUFSZ];
        int flag = S32, n = -1;
        CHECK_RC(MPI_Info_create(&s), MPI_SUCCESS);
        CHECK_RC(MPI_Info_set(s, "empty", ""), MPI_SUCCESS);
        CHECK_RC(MPI_Info_set(s, "max", v1023), MPI_SUCCESS);
        CHECK_RC(MPI_Info_get_nkeys(s, &n), MPI_SUCCESS);
        CHECK(n == 2);
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(s, "empty", 100, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && buf[0] == '\0' && untouched(buf, 1, sizeof buf));
        flag = S32;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(s, "max", MPI_MAX_INFO_VAL, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strlen(buf) == 1023 && untouched(buf, 1024, sizeof buf));
        /* A bad value on the scratch object also leaves it as it was. */
        CHECK_RC(MPI_Info_set(s, "max", v1024), MPI_ERR_INFO_VALUE);
        CHECK_RC(MPI_Info_set(s, "empty", NULL), MPI_ERR_INFO_VALUE);
        flag = S32;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(s, "max", MPI_MAX_INFO_VAL, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(buf, v1023) == 0);
        n = -1;
        CHECK_RC(MPI_Info_get_nkeys(s, &n), MPI_SUCCESS);
        CHECK(n == 2);
        CHECK_RC(MPI_Info_free(&s), MPI_SUCCESS);
    }
}

/* ---------------------------------------------------------------- MPI_ERR_ARG */

static void test_bad_outputs(void) {
    /* MPI_Info_get: negative valuelen, NULL value, NULL flag; whether or not the key exists
     * (all arguments are checked before the lookup). */
    const char *keys[] = {"alpha", "gamma", "beta", "missing"};
    for (int i = 0; i < 4; i++) {
        const char *k = keys[i];
        CTX_BEGIN(k, i);
        FAILS(try_get(A, k, -1, 0, 0), MPI_ERR_ARG);
        FAILS(try_get(A, k, INT_MIN, 0, 0), MPI_ERR_ARG);
        FAILS(try_get(A, k, 100, 1, 0), MPI_ERR_ARG);
        FAILS(try_get(A, k, 0, 1, 0), MPI_ERR_ARG);
        FAILS(try_get(A, k, 100, 0, 1), MPI_ERR_ARG);
        FAILS(try_get(A, k, 100, 1, 1), MPI_ERR_ARG);
        FAILS(try_get(A, k, -1, 1, 1), MPI_ERR_ARG);

        FAILS(try_valuelen(A, k, 1, 0), MPI_ERR_ARG);
        FAILS(try_valuelen(A, k, 0, 1), MPI_ERR_ARG);
        FAILS(try_valuelen(A, k, 1, 1), MPI_ERR_ARG);

        FAILS(try_string(A, k, 0, 1, 0, 0), MPI_ERR_ARG);   /* NULL buflen */
        FAILS(try_string(A, k, -1, 0, 0, 0), MPI_ERR_ARG);  /* negative *buflen */
        FAILS(try_string(A, k, INT_MIN, 0, 0, 0), MPI_ERR_ARG);
        FAILS(try_string(A, k, -1, 0, 1, 0), MPI_ERR_ARG);
        FAILS(try_string(A, k, 1, 0, 1, 0), MPI_ERR_ARG);   /* *buflen > 0, value NULL */
        FAILS(try_string(A, k, 100, 0, 1, 0), MPI_ERR_ARG);
        FAILS(try_string(A, k, 100, 0, 0, 1), MPI_ERR_ARG); /* NULL flag */
        FAILS(try_string(A, k, 0, 0, 1, 1), MPI_ERR_ARG);   /* *buflen == 0, NULL flag */
        FAILS(try_string(A, k, 0, 0, 0, 1), MPI_ERR_ARG);

        /* Same on the empty object: the key is always missing there. */
        FAILS(try_get(E, k, -1, 0, 0), MPI_ERR_ARG);
        FAILS(try_get(E, k, 100, 1, 0), MPI_ERR_ARG);
        FAILS(try_get(E, k, 100, 0, 1), MPI_ERR_ARG);
        FAILS(try_valuelen(E, k, 1, 0), MPI_ERR_ARG);
        FAILS(try_valuelen(E, k, 0, 1), MPI_ERR_ARG);
        FAILS(try_string(E, k, 5, 0, 1, 0), MPI_ERR_ARG);
        FAILS(try_string(E, k, -5, 0, 0, 0), MPI_ERR_ARG);
        FAILS(try_string(E, k, 0, 0, 1, 1), MPI_ERR_ARG);
        CTX_END();
    }

    /* Valid boundaries next to the bad ones. valuelen 0: just the NUL. */
    {
        char buf[16];
        int flag = S32;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(A, "gamma", 0, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && buf[0] == '\0' && untouched(buf, 1, sizeof buf));
    }
    /* get_string with *buflen == 0 and value NULL: success; *buflen = len + 1. */
    {
        int bl = 0, flag = S32;
        CHECK_RC(MPI_Info_get_string(A, "gamma", &bl, NULL, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && bl == 1024);
        bl = 0;
        flag = S32;
        CHECK_RC(MPI_Info_get_string(A, "beta", &bl, NULL, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && bl == 1);
        bl = 0;
        flag = S32;
        CHECK_RC(MPI_Info_get_string(A, "missing", &bl, NULL, &flag), MPI_SUCCESS);
        CHECK(flag == 0 && bl == 0);
        bl = 0;
        flag = S32;
        CHECK_RC(MPI_Info_get_string(E, "alpha", &bl, NULL, &flag), MPI_SUCCESS);
        CHECK(flag == 0 && bl == 0);
        CHECK(all_unchanged());
    }

    /* get_nkeys with NULL. */
    FAILS(try_nkeys(A, 1), MPI_ERR_ARG);
    FAILS(try_nkeys(E, 1), MPI_ERR_ARG);

    /* get_nthkey: negative n, n >= nkeys, NULL key. */
    {
        int ns[] = {-1, -2, INT_MIN, A_NKEYS, A_NKEYS + 1, 1000, INT_MAX};
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            CTX_BEGIN("nthkey n", ns[i]);
            FAILS(try_nthkey(A, ns[i], 0), MPI_ERR_ARG);
            FAILS(try_nthkey(A, ns[i], 1), MPI_ERR_ARG);
            FAILS(try_nthkey(E, ns[i], 0), MPI_ERR_ARG);
            CTX_END();
        }
        FAILS(try_nthkey(A, 0, 1), MPI_ERR_ARG);
        FAILS(try_nthkey(A, A_NKEYS - 1, 1), MPI_ERR_ARG);
        FAILS(try_nthkey(E, 0, 0), MPI_ERR_ARG); /* no keys at all */
        FAILS(try_nthkey(E, 0, 1), MPI_ERR_ARG);
        /* The last valid index works. */
        char key[MPI_MAX_INFO_KEY + 8];
        fill_sentinel(key, sizeof key);
        CHECK_RC(MPI_Info_get_nthkey(A, A_NKEYS - 1, key), MPI_SUCCESS);
        CHECK(strcmp(key, "key with space") == 0 && untouched(key, 15, sizeof key));
    }

    /* dup / create with NULL output. */
    FAILS(try_dup(A, 1), MPI_ERR_ARG);
    FAILS(try_dup(E, 1), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_create(NULL), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_create(NULL), MPI_ERR_ARG); /* twice: no hidden state */
}

/* ---------------------------------------------------------------- MPI_Info_free */

static void test_free(void) {
    FAILS(try_free(A, 1), MPI_ERR_ARG); /* NULL pointer */
    FAILS(try_free(MPI_INFO_NULL, 0), MPI_ERR_INFO);
    FAILS(try_free(MPI_INFO_ENV, 0), MPI_ERR_INFO);
    FAILS(try_free(MPI_Info_fromint(0), 0), MPI_ERR_INFO);
    FAILS(try_free(MPI_Info_fromint(-1), 0), MPI_ERR_INFO);
    FAILS(try_free(MPI_Info_fromint(INT_MIN), 0), MPI_ERR_INFO);
    FAILS(try_free(MPI_Info_fromint(INT_MAX), 0), MPI_ERR_INFO);
    {
        MPI_Info dead = freed_handle();
        FAILS(try_free(dead, 0), MPI_ERR_INFO);
        FAILS(try_free(dead, 0), MPI_ERR_INFO);
    }
    /* A double free through the same variable: the first sets it to MPI_INFO_NULL, so the
     * second is MPI_ERR_INFO with the variable unchanged. Through a saved copy, likewise. */
    {
        MPI_Info h = MPI_INFO_NULL;
        CHECK_RC(MPI_Info_create(&h), MPI_SUCCESS);
        MPI_Info copy = h;
        CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
        CHECK(h == MPI_INFO_NULL);
        CHECK_RC(MPI_Info_free(&h), MPI_ERR_INFO);
        CHECK(h == MPI_INFO_NULL);
        CHECK_RC(MPI_Info_free(&copy), MPI_ERR_INFO);
        CHECK(copy != MPI_INFO_NULL);
    }
    /* The live objects survived all of it. */
    {
        int n = -1;
        CHECK_RC(MPI_Info_get_nkeys(A, &n), MPI_SUCCESS);
        CHECK(n == A_NKEYS);
    }
}

/* ---------------------------------------------------------------- create_env */

static void test_create_env(void) {
    char a0[] = "prog", a1[] = "one", a2[] = "two";
    char *ok3[] = {a0, a1, a2, NULL};
    char *null0[] = {NULL, a1, NULL};
    char *null1[] = {a0, NULL, a2, NULL};
    char *null2[] = {a0, a1, NULL, NULL};

    FAILS(try_create_env(-1, ok3, 0), MPI_ERR_ARG);
    FAILS(try_create_env(INT_MIN, ok3, 0), MPI_ERR_ARG);
    FAILS(try_create_env(-1, NULL, 0), MPI_ERR_ARG);
    FAILS(try_create_env(1, NULL, 0), MPI_ERR_ARG);
    FAILS(try_create_env(INT_MAX, NULL, 0), MPI_ERR_ARG);
    FAILS(try_create_env(1, null0, 0), MPI_ERR_ARG);
    FAILS(try_create_env(2, null1, 0), MPI_ERR_ARG);
    FAILS(try_create_env(3, null1, 0), MPI_ERR_ARG);
    FAILS(try_create_env(3, null2, 0), MPI_ERR_ARG); /* the last of argv[0..3] is NULL */
    FAILS(try_create_env(3, ok3, 1), MPI_ERR_ARG);   /* info NULL */
    FAILS(try_create_env(0, NULL, 1), MPI_ERR_ARG);
    FAILS(try_create_env(0, ok3, 1), MPI_ERR_ARG);
    FAILS(try_create_env(-1, NULL, 1), MPI_ERR_ARG);
    FAILS(try_create_env(1, NULL, 1), MPI_ERR_ARG);

    /* Valid: argc == 0 with argv NULL (no command, no argv key); argv[argc] need not be
     * NULL and is not read (the array ends at a guard page); NULLs after argv[argc-1] are
     * outside the range. */
    {
        MPI_Info h = S32_HANDLE;
        char buf[64];
        int flag = S32;
        CHECK_RC(MPI_Info_create_env(0, NULL, &h), MPI_SUCCESS);
        CHECK(h != S32_HANDLE && h != MPI_INFO_NULL && h != MPI_INFO_ENV);
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(h, "command", 60, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 0);
        flag = S32;
        CHECK_RC(MPI_Info_get(h, "argv", 60, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 0);
        flag = S32;
        CHECK_RC(MPI_Info_get(h, "maxprocs", 60, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(buf, "1") == 0);
        CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);

        h = S32_HANDLE;
        CHECK_RC(MPI_Info_create_env(0, null0, &h), MPI_SUCCESS);
        CHECK(h != S32_HANDLE);
        if (h != S32_HANDLE) CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);

        h = S32_HANDLE;
        CHECK_RC(MPI_Info_create_env(1, null1, &h), MPI_SUCCESS);
        CHECK(h != S32_HANDLE);
        if (h != S32_HANDLE) CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);

        h = S32_HANDLE;
        CHECK_RC(MPI_Info_create_env(2, null2, &h), MPI_SUCCESS);
        flag = S32;
        fill_sentinel(buf, sizeof buf);
        if (h != S32_HANDLE) {
            CHECK_RC(MPI_Info_get(h, "argv", 60, buf, &flag), MPI_SUCCESS);
            CHECK(flag == 1 && strcmp(buf, "one") == 0);
            CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
        }

        char **guarded = (char **)(void *)guarded_end(2 * sizeof(char *));
        guarded[0] = a0;
        guarded[1] = a2;
        h = S32_HANDLE;
        CHECK_RC(MPI_Info_create_env(2, guarded, &h), MPI_SUCCESS);
        flag = S32;
        fill_sentinel(buf, sizeof buf);
        if (h != S32_HANDLE) {
            CHECK_RC(MPI_Info_get(h, "command", 60, buf, &flag), MPI_SUCCESS);
            CHECK(flag == 1 && strcmp(buf, "prog") == 0);
            flag = S32;
            CHECK_RC(MPI_Info_get(h, "argv", 60, buf, &flag), MPI_SUCCESS);
            CHECK(flag == 1 && strcmp(buf, "two") == 0);
            CHECK_RC(MPI_Info_free(&h), MPI_SUCCESS);
        }
    }
}

/* ---------------------------------------------------------------- error strings */

static void test_error_functions(void) {
    int unknown[] = {-1, 1, 12, 14, 15, 18, 30, 35, 38, 40, 1000, 4096, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        CTX_BEGIN("error code", unknown[i]);
        FAILS(try_error_string(unknown[i], 0, 0), MPI_ERR_ARG);
        FAILS(try_error_string(unknown[i], 1, 1), MPI_ERR_ARG);
        FAILS(try_error_class(unknown[i], 0), MPI_ERR_ARG);
        FAILS(try_error_class(unknown[i], 1), MPI_ERR_ARG);
        CTX_END();
    }
    /* NULL outputs with a known code. */
    int known[] = {MPI_SUCCESS, MPI_ERR_ARG, MPI_ERR_INFO};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        CTX_BEGIN("known error code", known[i]);
        FAILS(try_error_string(known[i], 1, 0), MPI_ERR_ARG);
        FAILS(try_error_string(known[i], 0, 1), MPI_ERR_ARG);
        FAILS(try_error_string(known[i], 1, 1), MPI_ERR_ARG);
        FAILS(try_error_class(known[i], 1), MPI_ERR_ARG);
        CTX_END();
    }
    /* The valid call next to them works. */
    {
        char buf[MPI_MAX_ERROR_STRING];
        int len = S32, cls = S32;
        CHECK_RC(MPI_Error_string(MPI_ERR_INFO_KEY, buf, &len), MPI_SUCCESS);
        CHECK(len > 0 && len == (int)strlen(buf));
        CHECK_RC(MPI_Error_class(MPI_ERR_INFO_KEY, &cls), MPI_SUCCESS);
        CHECK(cls == MPI_ERR_INFO_KEY);
    }
}

/* ---------------------------------------------------------------- PMPI twins */

static void test_pmpi_badargs(void) {
    char buf[32];
    int flag = S32, n = S32;
    MPI_Info h = MPI_INFO_ENV;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(PMPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
    CHECK_RC(PMPI_Info_set(A, "", "v"), MPI_ERR_INFO_KEY);
    CHECK_RC(PMPI_Info_set(A, "k", v1024), MPI_ERR_INFO_VALUE);
    CHECK_RC(PMPI_Info_delete(A, "missing"), MPI_ERR_INFO_NOKEY);
    CHECK_RC(PMPI_Info_get(A, "missing", 10, buf, NULL), MPI_ERR_ARG);
    CHECK_RC(PMPI_Info_get(A, "alpha", 10, NULL, &flag), MPI_ERR_ARG);
    CHECK_RC(PMPI_Info_get_valuelen(A, NULL, NULL, NULL), MPI_ERR_INFO_KEY);
    CHECK_RC(PMPI_Info_get_string(A, "alpha", NULL, buf, &flag), MPI_ERR_ARG);
    CHECK_RC(PMPI_Info_get_nkeys(MPI_Info_fromint(-1), &n), MPI_ERR_INFO);
    CHECK_RC(PMPI_Info_get_nthkey(A, A_NKEYS, buf), MPI_ERR_ARG);
    CHECK_RC(PMPI_Info_dup(A, NULL), MPI_ERR_ARG);
    CHECK_RC(PMPI_Info_free(&h), MPI_ERR_INFO);
    CHECK_RC(PMPI_Info_create(NULL), MPI_ERR_ARG);
    CHECK_RC(PMPI_Info_create_env(1, NULL, &h), MPI_ERR_ARG);
    CHECK_RC(PMPI_Error_string(35, buf, &n), MPI_ERR_ARG);
    CHECK_RC(PMPI_Error_class(1, &n), MPI_ERR_ARG);
    CHECK(flag == S32 && n == S32 && h == MPI_INFO_ENV && untouched(buf, 0, sizeof buf));
    CHECK(all_unchanged());
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    setup();
    test_invalid_handles();
    test_env();
    test_bad_keys();
    test_bad_values();
    test_bad_outputs();
    test_free();
    test_create_env();
    test_error_functions();
    test_pmpi_badargs();
    CHECK(all_unchanged());
    teardown();
    return check_report();
}
