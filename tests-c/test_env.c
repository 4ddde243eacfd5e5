/* test_env.c - MPI_INFO_ENV and MPI_Info_create_env (docs/reference.md, "MPI_INFO_ENV and
 * MPI_Info_create_env", with "Handles" and "MPI_Info_create_env").
 *
 * MPI_INFO_ENV with no init call: its keys, in order, and their values (command from
 * /proc/self/cmdline, argv joined with single spaces, maxprocs, soft, host, arch, wdir when the
 * library was loaded, thread_level); it is read-only (set/delete/free are MPI_ERR_INFO and change
 * nothing) and its dup is an ordinary writable object.
 *
 * The argv key is tested both ways: this process runs without arguments (no argv key), and
 * it fork()s and re-executes itself as "<argv0> --child 'a b' c", where the argv key must be
 * "--child a b c". The child sends its pass/fail counts back through a pipe (its file
 * descriptor is named by the environment variable MPI_INFO_TEST_ENV_FD) and the parent adds
 * them to its own before it prints the one "N passed, M failed" line.
 *
 * MPI_Info_create_env: argc 0/1/3, the 1023/1024-character limits on command and on the
 * joined argv (left out, never cut), spaces inside arguments, wdir at the call, independent
 * new objects, and the MPI_ERR_ARG cases with *info untouched. */
#include "support.h"

#include <errno.h>
#include <limits.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#define CHILD_FLAG "--child"
#define REPORT_FD_VAR "MPI_INFO_TEST_ENV_FD"
#define SENTINEL_HANDLE MPI_Info_fromint(123457)

/* ---- helpers ------------------------------------------------------------------------ */

/* The value of key in info, copied to out (MPI_MAX_INFO_VAL + 1 bytes). Returns 1 if found
 * (and get_valuelen agrees on the length), 0 if absent (get and get_valuelen both say so),
 * -1 if a call failed or the two calls disagree. */
static int value_of(MPI_Info info, const char *key, char *out) {
    int flag = -7, vlen = -7;
    fill_sentinel(out, MPI_MAX_INFO_VAL + 1);
    if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL, out, &flag) != MPI_SUCCESS) return -1;
    if (flag == 0) {
        if (!untouched(out, 0, MPI_MAX_INFO_VAL + 1)) return -1;
        if (MPI_Info_get_valuelen(info, key, &vlen, &flag) != MPI_SUCCESS) return -1;
        return (flag == 0 && vlen == -7) ? 0 : -1;
    }
    if (flag != 1) return -1;
    if (memchr(out, '\0', MPI_MAX_INFO_VAL + 1) == NULL) return -1;
    flag = -7;
    if (MPI_Info_get_valuelen(info, key, &vlen, &flag) != MPI_SUCCESS) return -1;
    if (flag != 1 || vlen != (int)strlen(out)) return -1;
    return 1;
}

/* 1 if info holds key with exactly this value. */
static int has(MPI_Info info, const char *key, const char *expect) {
    char buf[MPI_MAX_INFO_VAL + 1];
    return value_of(info, key, buf) == 1 && strcmp(buf, expect) == 0;
}

/* 1 if key is absent from info. */
static int lacks(MPI_Info info, const char *key) {
    char buf[MPI_MAX_INFO_VAL + 1];
    return value_of(info, key, buf) == 0;
}

static int nkeys(MPI_Info info) {
    int n = -1;
    if (MPI_Info_get_nkeys(info, &n) != MPI_SUCCESS) return -1;
    return n;
}

/* 1 if the keys of info are exactly expected[0..n), in this order. */
static int keys_are(MPI_Info info, const char *const *expected, int n) {
    if (nkeys(info) != n) return 0;
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS) return 0;
        if (strcmp(key, expected[i]) != 0) return 0;
    }
    return 1;
}

/* What the machine says: host name, machine, working directory. */
static char host_name[HOST_NAME_MAX + 2];
static struct utsname machine;

static void learn_machine(void) {
    memset(host_name, 0, sizeof host_name);
    if (gethostname(host_name, sizeof host_name - 1) != 0) {
        perror("gethostname");
        exit(2);
    }
    if (uname(&machine) != 0) {
        perror("uname");
        exit(2);
    }
}

static char *cwd_now(void) {
    char *d = getcwd(NULL, 0);
    if (!d) {
        perror("getcwd");
        exit(2);
    }
    return d;
}

/* The first NUL-separated field of /proc/self/cmdline: argv[0] as the OS sees it. */
static char *os_argv0(void) {
    FILE *f = fopen("/proc/self/cmdline", "rb");
    char *buf = (char *)calloc(1, 65536);
    size_t got;
    if (!f || !buf) {
        perror("/proc/self/cmdline");
        exit(2);
    }
    got = fread(buf, 1, 65535, f);
    fclose(f);
    buf[got] = '\0';
    return buf;
}

/* The pairs docs/reference.md lists ("MPI_INFO_ENV and MPI_Info_create_env"), given the command
 * (NULL: absent), the joined argv (NULL: absent) and the expected wdir. Checks the key order and
 * every value. */
static void check_env_pairs(const char *what, MPI_Info info, const char *command,
                            const char *argv_joined, const char *wdir) {
    int failed_before = check_failed_count;
    const char *keys[8];
    int n = 0;
    if (command) keys[n++] = "command";
    if (argv_joined) keys[n++] = "argv";
    keys[n++] = "maxprocs";
    keys[n++] = "soft";
    keys[n++] = "host";
    keys[n++] = "arch";
    keys[n++] = "wdir";
    keys[n++] = "thread_level";

    CHECK(nkeys(info) == n);
    CHECK(keys_are(info, keys, n));
    if (command)
        CHECK(has(info, "command", command));
    else
        CHECK(lacks(info, "command"));
    if (argv_joined)
        CHECK(has(info, "argv", argv_joined));
    else
        CHECK(lacks(info, "argv"));
    CHECK(has(info, "maxprocs", "1"));
    CHECK(has(info, "soft", "1"));
    CHECK(has(info, "host", host_name));
    CHECK(has(info, "arch", machine.machine));
    CHECK(has(info, "wdir", wdir));
    CHECK(has(info, "thread_level", "MPI_THREAD_MULTIPLE"));
    if (check_failed_count != failed_before) {
        size_t len;
        char *d = dump(info, &len);
        fprintf(stderr, "  (in %s; the object holds %s pairs:", what, d);
        for (size_t i = strlen(d) + 1; i < len; i += strlen(d + i) + 1)
            fprintf(stderr, " [%s]", d + i);
        fprintf(stderr, ")\n");
        free(d);
    }
}

/* argv[1..argc) joined with single spaces; NULL when argc < 2. malloc'd. */
static char *join_args(int argc, char **argv) {
    size_t len = 0;
    char *out;
    if (argc < 2) return NULL;
    for (int i = 1; i < argc; i++) len += strlen(argv[i]) + 1;
    out = (char *)malloc(len);
    if (!out) exit(2);
    out[0] = '\0';
    for (int i = 1; i < argc; i++) {
        if (i > 1) strcat(out, " ");
        strcat(out, argv[i]);
    }
    return out;
}

/* ---- MPI_INFO_ENV ----------------------------------------------------------------- */

/* The first call into the library of this process reads MPI_INFO_ENV. `expected_wdir` is
 * the working directory when the library was loaded. */
static void test_info_env(int argc, char **argv, const char *expected_wdir) {
    int n = -1;
    char *argv0 = os_argv0();
    char *joined = join_args(argc, argv);

    /* No init call: the very first call works. */
    CHECK_RC(MPI_Info_get_nkeys(MPI_INFO_ENV, &n), MPI_SUCCESS);
    CHECK(n == (argc >= 2 ? 8 : 7));

    /* command is argv[0] as the OS sees it, which is also main's argv[0]. */
    CHECK(has(MPI_INFO_ENV, "command", argv[0]));
    check_env_pairs("MPI_INFO_ENV", MPI_INFO_ENV, argv0, joined, expected_wdir);
    if (argc >= 2 && strcmp(argv[1], CHILD_FLAG) == 0)
        CHECK(has(MPI_INFO_ENV, "argv", CHILD_FLAG " a b c"));
    if (argc == 1) CHECK(lacks(MPI_INFO_ENV, "argv"));

    /* wdir is fixed: changing directory afterwards changes nothing. */
    {
        const char *elsewhere = strcmp(expected_wdir, "/") == 0 ? "/tmp" : "/";
        char *back = cwd_now();
        if (chdir(elsewhere) != 0) {
            perror("chdir");
            exit(2);
        }
        CHECK(has(MPI_INFO_ENV, "wdir", expected_wdir));
        if (chdir(back) != 0) {
            perror("chdir");
            exit(2);
        }
        free(back);
    }

    /* The PMPI_ twin sees the same object. */
    {
        int pn = -1;
        CHECK_RC(PMPI_Info_get_nkeys(MPI_INFO_ENV, &pn), MPI_SUCCESS);
        CHECK(pn == n);
    }

    /* get_string and nthkey bounds work on it like on any object. */
    {
        int buflen = 0, flag = -1;
        char key[MPI_MAX_INFO_KEY + 1];
        CHECK_RC(MPI_Info_get_string(MPI_INFO_ENV, "thread_level", &buflen, NULL, &flag),
                 MPI_SUCCESS);
        CHECK(flag == 1 && buflen == (int)strlen("MPI_THREAD_MULTIPLE") + 1);
        fill_sentinel(key, sizeof key);
        CHECK_RC(MPI_Info_get_nthkey(MPI_INFO_ENV, n, key), MPI_ERR_ARG);
        CHECK(untouched(key, 0, sizeof key));
        CHECK_RC(MPI_Info_get_nthkey(MPI_INFO_ENV, n - 1, key), MPI_SUCCESS);
        CHECK(strcmp(key, "thread_level") == 0);
    }
    free(argv0);
    free(joined);
}

/* MPI_INFO_ENV is read-only; its dup is not. */
static void test_info_env_read_only(void) {
    size_t snaplen;
    char *snap = dump(MPI_INFO_ENV, &snaplen);
    MPI_Info h;

    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, "new_key", "v"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, "soft", "2"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, "soft", "1"), MPI_ERR_INFO);
    CHECK_RC(PMPI_Info_set(MPI_INFO_ENV, "maxprocs", "8"), MPI_ERR_INFO);
    /* The handle is checked first: bad key and value do not change the class. */
    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, NULL, NULL), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, "", "v"), MPI_ERR_INFO);
    CHECK(same_as(MPI_INFO_ENV, snap, snaplen));

    CHECK_RC(MPI_Info_delete(MPI_INFO_ENV, "soft"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_delete(MPI_INFO_ENV, "thread_level"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_delete(MPI_INFO_ENV, "no_such_key"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_delete(MPI_INFO_ENV, NULL), MPI_ERR_INFO);
    CHECK_RC(PMPI_Info_delete(MPI_INFO_ENV, "host"), MPI_ERR_INFO);
    CHECK(same_as(MPI_INFO_ENV, snap, snaplen));

    h = MPI_INFO_ENV;
    CHECK_RC(MPI_Info_free(&h), MPI_ERR_INFO);
    CHECK(h == MPI_INFO_ENV);
    CHECK_RC(PMPI_Info_free(&h), MPI_ERR_INFO);
    CHECK(h == MPI_INFO_ENV);
    CHECK(same_as(MPI_INFO_ENV, snap, snaplen));
    /* Still usable after the failed free. */
    CHECK(has(MPI_INFO_ENV, "maxprocs", "1"));

    /* dup gives an ordinary, writable object with the same pairs in the same order. */
    {
        MPI_Info d = SENTINEL_HANDLE, d2 = SENTINEL_HANDLE;
        int n = nkeys(MPI_INFO_ENV);
        char last[MPI_MAX_INFO_KEY + 1];
        CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &d), MPI_SUCCESS);
        CHECK(d != MPI_INFO_ENV && d != MPI_INFO_NULL && d != SENTINEL_HANDLE &&
              MPI_Info_toint(d) >= 4096);
        CHECK(same_as(d, snap, snaplen));
        CHECK_RC(MPI_Info_set(d, "soft", "2"), MPI_SUCCESS);
        CHECK_RC(MPI_Info_delete(d, "maxprocs"), MPI_SUCCESS);
        CHECK_RC(MPI_Info_set(d, "added", "yes"), MPI_SUCCESS);
        CHECK(has(d, "soft", "2"));
        CHECK(lacks(d, "maxprocs"));
        CHECK(has(d, "added", "yes"));
        CHECK(nkeys(d) == n);
        CHECK_RC(MPI_Info_get_nthkey(d, n - 1, last), MPI_SUCCESS);
        CHECK(strcmp(last, "added") == 0);
        /* ... and the original did not change. */
        CHECK(same_as(MPI_INFO_ENV, snap, snaplen));
        CHECK(lacks(MPI_INFO_ENV, "added"));

        /* A second dup is another object, again equal to MPI_INFO_ENV. */
        CHECK_RC(PMPI_Info_dup(MPI_INFO_ENV, &d2), MPI_SUCCESS);
        CHECK(d2 != d && d2 != MPI_INFO_ENV && MPI_Info_toint(d2) >= 4096);
        CHECK(same_as(d2, snap, snaplen));

        CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
        CHECK(d == MPI_INFO_NULL);
        CHECK_RC(MPI_Info_free(&d2), MPI_SUCCESS);
        CHECK(same_as(MPI_INFO_ENV, snap, snaplen));
    }
    free(snap);
}

/* ---- MPI_Info_create_env ------------------------------------------------------------ */

/* create_env(argc, argv) must succeed with a new object holding these pairs. */
static void expect_env(const char *what, int argc, char **argv, const char *command,
                       const char *argv_joined, const char *wdir) {
    MPI_Info info = SENTINEL_HANDLE;
    int rc = MPI_Info_create_env(argc, argv, &info);
    CHECK_RC(rc, MPI_SUCCESS);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "  (in %s)\n", what);
        return;
    }
    CHECK(info != SENTINEL_HANDLE && info != MPI_INFO_NULL && info != MPI_INFO_ENV &&
          MPI_Info_toint(info) >= 4096);
    check_env_pairs(what, info, command, argv_joined, wdir);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

static void test_create_env_basic(const char *wdir) {
    char prog[] = "prog", x[] = "x", y[] = "y";
    char *args3[] = {prog, x, y, NULL};
    char *args1[] = {prog, NULL};
    char *not_terminated[] = {prog, x, y}; /* argc limits what is read */

    expect_env("argc 0, argv NULL", 0, NULL, NULL, NULL, wdir);
    expect_env("argc 0, argv given", 0, args3, NULL, NULL, wdir);
    expect_env("argc 1", 1, args1, "prog", NULL, wdir);
    expect_env("argc 1 of 3", 1, args3, "prog", NULL, wdir);
    expect_env("argc 2", 2, args3, "prog", "x", wdir);
    expect_env("argc 3", 3, args3, "prog", "x y", wdir);
    expect_env("argc 2, no NULL after", 2, not_terminated, "prog", "x", wdir);

    /* The PMPI_ twin builds the same. */
    {
        MPI_Info info = SENTINEL_HANDLE;
        CHECK_RC(PMPI_Info_create_env(3, args3, &info), MPI_SUCCESS);
        check_env_pairs("PMPI_Info_create_env", info, "prog", "x y", wdir);
        CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    }

    /* Spaces inside arguments are kept; empty arguments still get their separator. */
    {
        char c[] = "my prog", a1[] = " a ", a2[] = "b  c", e[] = "";
        char *sp[] = {c, a1, a2, NULL};
        char *em[] = {c, e, x, e, NULL};
        expect_env("spaces", 3, sp, "my prog", " a  b  c", wdir);
        expect_env("empty arguments", 4, em, "my prog", " x ", wdir);
    }

    /* Arguments that end right before an unmapped page: nothing past their NUL is read. */
    {
        char *g0 = guarded_end(5), *g1 = guarded_end(2), *g2 = guarded_end(1025);
        char *v[] = {g0, g1, g2, NULL};
        memcpy(g0, "prog", 5);
        memcpy(g1, "x", 2);
        memset(g2, 'g', 1024);
        g2[1024] = '\0';
        expect_env("guarded", 2, v, "prog", "x", wdir);
        v[0] = g2;
        expect_env("guarded, long command", 2, v, NULL, "x", wdir);
        v[0] = g0;
        expect_env("guarded, long argv", 3, v, "prog", NULL, wdir);
    }

    /* The strings are copied: changing them afterwards does not change the object. */
    {
        char c[] = "orig", a[] = "arg";
        char *v[] = {c, a, NULL};
        MPI_Info info = SENTINEL_HANDLE;
        CHECK_RC(MPI_Info_create_env(2, v, &info), MPI_SUCCESS);
        strcpy(c, "XXXX");
        strcpy(a, "YYY");
        CHECK(has(info, "command", "orig"));
        CHECK(has(info, "argv", "arg"));
        CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    }
}

static void test_create_env_limits(const char *wdir) {
    char p[] = "p", z[] = "z";
    char *c1023 = repeat('c', 1023), *c1024 = repeat('c', 1024), *c5000 = repeat('c', 5000);
    char *a511 = repeat('a', 511), *b511 = repeat('b', 511), *a512 = repeat('a', 512);
    char *a1023 = repeat('a', 1023), *a1024 = repeat('a', 1024);
    char *j1023 = (char *)malloc(1024);
    if (!j1023) exit(2);
    sprintf(j1023, "%s %s", a511, b511);

    /* command: 1023 characters kept whole, 1024 left out (never cut to 1023). */
    {
        char *v[] = {c1023, NULL};
        expect_env("command 1023", 1, v, c1023, NULL, wdir);
    }
    {
        char *v[] = {c1024, NULL};
        expect_env("command 1024", 1, v, NULL, NULL, wdir);
    }
    {
        char *v[] = {c5000, NULL};
        expect_env("command 5000", 1, v, NULL, NULL, wdir);
    }
    /* A command left out does not take argv with it. */
    {
        char *v[] = {c1024, z, NULL};
        expect_env("command 1024 with argv", 2, v, NULL, "z", wdir);
    }

    /* argv: one argument of 1023 kept, 1024 left out. */
    {
        char *v[] = {p, a1023, NULL};
        expect_env("argv one 1023", 2, v, "p", a1023, wdir);
    }
    {
        char *v[] = {p, a1024, NULL};
        expect_env("argv one 1024", 2, v, "p", NULL, wdir);
    }
    /* argv: joined length exactly 1023 (511 + 1 + 511) kept, 1024 (512 + 1 + 511) left out. */
    {
        char *v[] = {p, a511, b511, NULL};
        expect_env("argv joined 1023", 3, v, "p", j1023, wdir);
    }
    {
        char *v[] = {p, a512, b511, NULL};
        expect_env("argv joined 1024", 3, v, "p", NULL, wdir);
    }
    /* Both too long: only the fixed pairs remain. */
    {
        char *v[] = {c1024, a512, b511, NULL};
        expect_env("both too long", 3, v, NULL, NULL, wdir);
    }
    /* Many short arguments whose join is 1023: 512 "x" joined = 1023 characters. */
    {
        char **v = (char **)malloc(sizeof(char *) * 514);
        char *expect = (char *)malloc(1024);
        char xs[] = "x";
        if (!v || !expect) exit(2);
        v[0] = p;
        for (int i = 1; i <= 512; i++) v[i] = xs;
        v[513] = NULL;
        for (int i = 0; i < 1023; i++) expect[i] = (i % 2 == 0) ? 'x' : ' ';
        expect[1023] = '\0';
        expect_env("512 arguments, 1023 joined", 513, v, "p", expect, wdir);
        v[512] = z; /* still 1023 */
        expect[1022] = 'z';
        expect_env("512 arguments, last z", 513, v, "p", expect, wdir);
        v[512] = a511; /* 1022 + 511 */
        expect_env("513 arguments, too long", 513, v, "p", NULL, wdir);
        free(v);
        free(expect);
    }

    free(c1023);
    free(c1024);
    free(c5000);
    free(a511);
    free(b511);
    free(a512);
    free(a1023);
    free(a1024);
    free(j1023);
}

/* wdir is the working directory at the call. */
static void test_create_env_wdir(const char *start_wdir) {
    char prog[] = "prog";
    char *v[] = {prog, NULL};
    char *tmp_real;
    MPI_Info info = SENTINEL_HANDLE;
    size_t envlen;
    char *envsnap = dump(MPI_INFO_ENV, &envlen);

    if (chdir("/tmp") != 0) {
        perror("chdir /tmp");
        exit(2);
    }
    tmp_real = cwd_now();
    CHECK_RC(MPI_Info_create_env(1, v, &info), MPI_SUCCESS);
    if (chdir(start_wdir) != 0) {
        perror("chdir back");
        exit(2);
    }
    CHECK(has(info, "wdir", tmp_real));
    check_env_pairs("create_env in /tmp", info, "prog", NULL, tmp_real);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    /* Back home: a new call sees the new directory. */
    expect_env("create_env back home", 1, v, "prog", NULL, start_wdir);
    /* MPI_INFO_ENV's wdir is not affected by any of this. */
    CHECK(same_as(MPI_INFO_ENV, envsnap, envlen));
    free(tmp_real);
    free(envsnap);
}

/* Each call returns a new, independent, writable object. */
static void test_create_env_independent(void) {
    char prog[] = "prog", x[] = "x";
    char *v[] = {prog, x, NULL};
    MPI_Info a = SENTINEL_HANDLE, b = SENTINEL_HANDLE, stale;
    size_t alen, envlen;
    char *asnap, *envsnap = dump(MPI_INFO_ENV, &envlen);
    int n;

    CHECK_RC(MPI_Info_create_env(2, v, &a), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create_env(2, v, &b), MPI_SUCCESS);
    CHECK(a != b);
    CHECK(a != MPI_INFO_ENV && b != MPI_INFO_ENV && MPI_Info_toint(a) >= 4096 &&
          MPI_Info_toint(b) >= 4096);
    n = nkeys(a);
    CHECK(n == 8);
    CHECK(nkeys(b) == n);
    asnap = dump(a, &alen);
    CHECK(same_as(b, asnap, alen));

    /* Writable, and changing b changes neither a nor MPI_INFO_ENV. */
    CHECK_RC(MPI_Info_set(b, "command", "changed"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(b, "host"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(b, "extra", "1"), MPI_SUCCESS);
    CHECK(has(b, "command", "changed"));
    CHECK(lacks(b, "host"));
    CHECK(has(b, "extra", "1"));
    CHECK(same_as(a, asnap, alen));
    CHECK(same_as(MPI_INFO_ENV, envsnap, envlen));

    /* Freeing one leaves the other. */
    stale = b;
    CHECK_RC(MPI_Info_free(&b), MPI_SUCCESS);
    CHECK(b == MPI_INFO_NULL);
    CHECK_RC(MPI_Info_get_nkeys(stale, &n), MPI_ERR_INFO);
    CHECK(same_as(a, asnap, alen));
    CHECK_RC(MPI_Info_free(&a), MPI_SUCCESS);
    free(asnap);
    free(envsnap);
}

/* MPI_ERR_ARG cases: *info is not written and no object appears. */
static void test_create_env_errors(void) {
    char prog[] = "prog", x[] = "x";
    char *with_null0[] = {NULL, x, NULL};
    char *with_null1[] = {prog, NULL, x, NULL};
    char *good[] = {prog, x, NULL};
    MPI_Info info;
    size_t envlen;
    char *envsnap = dump(MPI_INFO_ENV, &envlen);

    info = SENTINEL_HANDLE;
    CHECK_RC(MPI_Info_create_env(-1, good, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    CHECK_RC(MPI_Info_create_env(-1, NULL, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    CHECK_RC(MPI_Info_create_env(INT_MIN, good, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    CHECK_RC(MPI_Info_create_env(1, NULL, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    CHECK_RC(MPI_Info_create_env(3, NULL, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    CHECK_RC(MPI_Info_create_env(1, with_null0, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    CHECK_RC(MPI_Info_create_env(2, with_null0, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    CHECK_RC(MPI_Info_create_env(2, with_null1, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    CHECK_RC(MPI_Info_create_env(3, with_null1, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    CHECK_RC(PMPI_Info_create_env(2, with_null1, &info), MPI_ERR_ARG);
    CHECK(info == SENTINEL_HANDLE);
    /* Only argv[0..argc) is looked at: the NULL at index 1 is beyond argc = 1. */
    CHECK_RC(MPI_Info_create_env(1, with_null1, &info), MPI_SUCCESS);
    CHECK(info != SENTINEL_HANDLE);
    CHECK(has(info, "command", "prog") && lacks(info, "argv"));
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);

    /* info NULL, with otherwise good arguments and with bad ones. */
    CHECK_RC(MPI_Info_create_env(2, good, NULL), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_create_env(0, NULL, NULL), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_create_env(-1, NULL, NULL), MPI_ERR_ARG);
    CHECK_RC(PMPI_Info_create_env(0, NULL, NULL), MPI_ERR_ARG);

    CHECK(same_as(MPI_INFO_ENV, envsnap, envlen));
    free(envsnap);
}

/* ---- the second run ----------------------------------------------------------------- */

/* Runs this program again as "<argv0> --child 'a b' c" and adds the child's counts to ours. */
static void run_child(const char *argv0) {
    int fds[2];
    pid_t pid;
    char exe[PATH_MAX + 1];
    ssize_t el = readlink("/proc/self/exe", exe, PATH_MAX);
    char report[128];
    size_t got = 0;
    int status = -1, cp = -1, cf = -1;

    if (el <= 0) {
        /* No /proc/self/exe: fall back on argv[0] (a path when run by the suite). */
        snprintf(exe, sizeof exe, "%s", argv0);
    } else {
        exe[el] = '\0';
    }
    if (pipe(fds) != 0) {
        perror("pipe");
        exit(2);
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        char fdtext[16], a0[PATH_MAX + 1], a1[] = CHILD_FLAG, a2[] = "a b", a3[] = "c";
        char *args[] = {a0, a1, a2, a3, NULL};
        snprintf(a0, sizeof a0, "%s", argv0);
        close(fds[0]);
        snprintf(fdtext, sizeof fdtext, "%d", fds[1]);
        setenv(REPORT_FD_VAR, fdtext, 1);
        execv(exe, args);
        perror("execv");
        _exit(127);
    }
    close(fds[1]);
    for (;;) {
        ssize_t r = read(fds[0], report + got, sizeof report - 1 - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
        if (got == sizeof report - 1) break;
    }
    report[got] = '\0';
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(sscanf(report, "%d %d", &cp, &cf) == 2 && cp > 0 && cf >= 0);
    if (cp > 0) check_passed_count += cp;
    if (cf > 0) check_failed_count += cf;
}

int main(int argc, char **argv) {
    char *start_wdir;
    int is_child = argc >= 2 && strcmp(argv[1], CHILD_FLAG) == 0;
    check_start(argv[0]);
    learn_machine();
    start_wdir = cwd_now();

    if (is_child) {
        /* MPI_INFO_ENV's wdir is the directory when the library was loaded, not at the first
         * read: move before reading it for the first time. */
        const char *first = strcmp(start_wdir, "/") == 0 ? "/tmp" : "/";
        if (chdir(first) != 0) {
            perror("chdir");
            exit(2);
        }
        test_info_env(argc, argv, start_wdir);
        if (chdir(start_wdir) != 0) {
            perror("chdir");
            exit(2);
        }
    } else {
        test_info_env(argc, argv, start_wdir);
    }
    test_info_env_read_only();
    test_create_env_basic(start_wdir);
    test_create_env_limits(start_wdir);
    test_create_env_wdir(start_wdir);
    test_create_env_independent();
    test_create_env_errors();

    if (is_child) {
        const char *fdtext = getenv(REPORT_FD_VAR);
        free(start_wdir);
        if (fdtext) {
            /* Report to the parent, which prints the one summary line. */
            char line[64];
            int fd = atoi(fdtext);
            int len = snprintf(line, sizeof line, "%d %d\n", check_passed_count,
                               check_failed_count);
            if (write(fd, line, (size_t)len) != len) return 3;
            close(fd);
            return 0;
        }
        return check_report(); /* run by hand */
    }
    run_child(argv[0]);
    free(start_wdir);
    return check_report();
}
