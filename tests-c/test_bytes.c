/* test_bytes.c - exact byte counts of every output and bounded reads of every input
 * (docs/reference.md, "Rules every function follows", "Functions" and "Strings").
 *
 * Outputs: each buffer is filled with the sentinel byte, and every byte after the one the
 * rules allow must still hold it. Outputs are also placed so that they end exactly at an
 * inaccessible page (guarded_end), so one byte too many faults.
 * Inputs: keys and values without a NUL are placed so that the byte after the library's
 * bound (256 for a key, 1024 for a value) is inaccessible; the library must answer with the
 * error class, not fault. Short strings end at the guard too: nothing past the NUL is read.
 *
 * A fault prints the stage it happened in and exits with a failure. */
#include "support.h"

#include <limits.h>
#include <signal.h>

static const char *volatile stage = "start";

static void on_fault(int sig) {
    const char *s = (const char *)stage;
    (void)sig;
    if (write(2, "test_bytes: FAULT in stage: ", 28) < 0) _exit(3);
    if (write(2, s, strlen(s)) < 0) _exit(3);
    if (write(2, "\n", 1) < 0) _exit(3);
    _exit(3);
}

static void install_fault_handler(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

/* A copy of s (with its NUL) whose NUL is the last readable byte. */
static char *at_guard(const char *s) {
    size_t n = strlen(s) + 1;
    char *g = guarded_end(n);
    memcpy(g, s, n);
    return g;
}

/* n bytes of c, no NUL, the last one right before the inaccessible page. */
static char *unterminated_at_guard(char c, size_t n) {
    char *g = guarded_end(n);
    memset(g, c, n);
    return g;
}

static int nkeys(MPI_Info info) {
    int n = -1;
    if (MPI_Info_get_nkeys(info, &n) != MPI_SUCCESS) return -1;
    return n;
}

/* MPI_Info_get of a value of length `len` with every interesting valuelen: exactly
 * min(len, valuelen) characters and a NUL, nothing after; success and flag 1 even when
 * truncated. Each case also with the buffer ending at the guard page. */
static void get_counts_for(MPI_Info info, const char *key, const char *val) {
    enum { BUF = 3000 };
    static char buf[BUF];
    int len = (int)strlen(val);
    int cases[12];
    int nc = 0;
    cases[nc++] = 0;
    cases[nc++] = 1;
    if (len >= 1) cases[nc++] = len - 1;
    cases[nc++] = len;
    cases[nc++] = len + 1;
    cases[nc++] = len + 100;
    cases[nc++] = MPI_MAX_INFO_VAL - 1;
    cases[nc++] = MPI_MAX_INFO_VAL;
    cases[nc++] = MPI_MAX_INFO_VAL + 1;

    for (int c = 0; c < nc; c++) {
        int vl = cases[c];
        int n = vl < len ? vl : len;
        int flag = -9;
        fill_sentinel(buf, BUF);
        stage = "get into a large buffer";
        CHECK_RC(MPI_Info_get(info, key, vl, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1);
        CHECK(memcmp(buf, val, (size_t)n) == 0);
        CHECK(buf[n] == '\0');
        if (!untouched(buf, (size_t)n + 1, BUF))
            fprintf(stderr, "get len=%d valuelen=%d wrote past byte %d\n", len, vl, n);
        CHECK(untouched(buf, (size_t)n + 1, BUF));

        /* exactly n+1 bytes before the guard */
        char *g = guarded_end((size_t)n + 1);
        fill_sentinel(g, (size_t)n + 1);
        flag = -9;
        stage = "get into a buffer of exactly min(len,valuelen)+1 bytes at the guard";
        CHECK_RC(MPI_Info_get(info, key, vl, g, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && memcmp(g, val, (size_t)n) == 0 && g[n] == '\0');
    }

    /* A huge valuelen with a buffer of only len+1 bytes: the library writes len+1 bytes. */
    {
        char *g = guarded_end((size_t)len + 1);
        int flag = -9;
        fill_sentinel(g, (size_t)len + 1);
        stage = "get with valuelen INT_MAX into len+1 bytes at the guard";
        CHECK_RC(MPI_Info_get(info, key, INT_MAX, g, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && memcmp(g, val, (size_t)len) == 0 && g[len] == '\0');
        fill_sentinel(buf, BUF);
        flag = -9;
        stage = "get with valuelen INT_MAX into a large buffer";
        CHECK_RC(MPI_Info_get(info, key, INT_MAX, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && memcmp(buf, val, (size_t)len) == 0 && buf[len] == '\0');
        CHECK(untouched(buf, (size_t)len + 1, BUF));
        fill_sentinel(buf, BUF);
        flag = -9;
        CHECK_RC(MPI_Info_get(info, key, INT_MAX - 1, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && buf[len] == '\0' && untouched(buf, (size_t)len + 1, BUF));
    }

    /* get_valuelen's output at the guard: an int, nothing more. */
    {
        int *pv = (int *)(void *)guarded_end(sizeof(int));
        int *pf = (int *)(void *)guarded_end(sizeof(int));
        *pv = -1;
        *pf = -1;
        stage = "get_valuelen with both outputs at the guard";
        CHECK_RC(MPI_Info_get_valuelen(info, key, pv, pf), MPI_SUCCESS);
        CHECK(*pv == len && *pf == 1);
    }
}

static void test_get_counts(void) {
    MPI_Info info = MPI_INFO_NULL;
    char *v1023 = repeat('z', 1023);
    char *v1022 = repeat('y', 1022);
    char mixed[40];
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    for (int i = 0; i < 37; i++) mixed[i] = (char)('A' + (i * 7) % 26);
    mixed[37] = '\0';
    CHECK_RC(MPI_Info_set(info, "mixed", mixed), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "one", "Q"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "empty", ""), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "max", v1023), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "max-1", v1022), MPI_SUCCESS);
    get_counts_for(info, "mixed", mixed);
    get_counts_for(info, "one", "Q");
    get_counts_for(info, "empty", "");
    get_counts_for(info, "max", v1023);
    get_counts_for(info, "max-1", v1022);

    /* A shorter value replacing a longer one: no bytes of the old value leak out. */
    {
        char buf[64];
        int flag = -1;
        CHECK_RC(MPI_Info_set(info, "mixed", "ab"), MPI_SUCCESS);
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Info_get(info, "mixed", 60, buf, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(buf, "ab") == 0 && untouched(buf, 3, sizeof buf));
    }

    /* Missing key: nothing written, with a 1-byte buffer at the guard and a large valuelen. */
    {
        char *g = guarded_end(1);
        int flag = 5;
        g[0] = SENTINEL;
        stage = "get missing key into 1 byte at the guard";
        CHECK_RC(MPI_Info_get(info, "nope", 1000, g, &flag), MPI_SUCCESS);
        CHECK(flag == 0 && untouched(g, 0, 1));
    }
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(v1023);
    free(v1022);
}

static void test_nthkey_counts(void) {
    MPI_Info info = MPI_INFO_NULL;
    char *k255 = repeat('K', 255);
    char *k254 = repeat('J', 254);
    const char *keys[5];
    char buf[MPI_MAX_INFO_KEY + 64];
    keys[0] = "a";
    keys[1] = "medium-length-key";
    keys[2] = k254;
    keys[3] = k255;
    keys[4] = "\xff\x80";
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    for (int i = 0; i < 5; i++) CHECK_RC(MPI_Info_set(info, keys[i], "v"), MPI_SUCCESS);
    CHECK(nkeys(info) == 5);
    for (int i = 0; i < 5; i++) {
        size_t kl = strlen(keys[i]);
        fill_sentinel(buf, sizeof buf);
        stage = "nthkey into a large buffer";
        CHECK_RC(MPI_Info_get_nthkey(info, i, buf), MPI_SUCCESS);
        CHECK(memcmp(buf, keys[i], kl) == 0 && buf[kl] == '\0');
        CHECK(untouched(buf, kl + 1, sizeof buf));

        char *g = guarded_end(kl + 1);
        fill_sentinel(g, kl + 1);
        stage = "nthkey into exactly strlen+1 bytes at the guard";
        CHECK_RC(MPI_Info_get_nthkey(info, i, g), MPI_SUCCESS);
        CHECK(memcmp(g, keys[i], kl) == 0 && g[kl] == '\0');
    }
    /* The 255-char key, whole, in a MPI_MAX_INFO_KEY-byte buffer ending at the guard. */
    {
        char *g = guarded_end(MPI_MAX_INFO_KEY);
        fill_sentinel(g, MPI_MAX_INFO_KEY);
        stage = "nthkey 255-char key into MPI_MAX_INFO_KEY bytes at the guard";
        CHECK_RC(MPI_Info_get_nthkey(info, 3, g), MPI_SUCCESS);
        CHECK(memcmp(g, k255, 255) == 0 && g[255] == '\0');
    }
    /* Out of range: nothing written. */
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(MPI_Info_get_nthkey(info, 5, buf), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_nthkey(info, -1, buf), MPI_ERR_ARG);
    CHECK(untouched(buf, 0, sizeof buf));
    /* nkeys output at the guard. */
    {
        int *pn = (int *)(void *)guarded_end(sizeof(int));
        *pn = -1;
        stage = "get_nkeys output at the guard";
        CHECK_RC(MPI_Info_get_nkeys(info, pn), MPI_SUCCESS);
        CHECK(*pn == 5);
    }
    /* create/dup/free handles at the guard. */
    {
        MPI_Info *ph = (MPI_Info *)(void *)guarded_end(sizeof(MPI_Info));
        MPI_Info *pd = (MPI_Info *)(void *)guarded_end(sizeof(MPI_Info));
        stage = "create/dup/free with handle at the guard";
        CHECK_RC(MPI_Info_create(ph), MPI_SUCCESS);
        CHECK_RC(MPI_Info_dup(info, pd), MPI_SUCCESS);
        CHECK(nkeys(*pd) == 5);
        CHECK_RC(MPI_Info_free(ph), MPI_SUCCESS);
        CHECK(*ph == MPI_INFO_NULL);
        CHECK_RC(MPI_Info_free(pd), MPI_SUCCESS);
        CHECK(*pd == MPI_INFO_NULL);
    }
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(k255);
    free(k254);
}

static void test_error_string_counts(void) {
    char buf[MPI_MAX_ERROR_STRING + 256];
    for (int i = 0; i < N_ERROR_CODES; i++) { /* check.h's table */
        int rl = -7;
        fill_sentinel(buf, sizeof buf);
        stage = "Error_string into a large buffer";
        CHECK_RC(MPI_Error_string(ERROR_CODES[i].code, buf, &rl), MPI_SUCCESS);
        size_t sl = strnlen(buf, sizeof buf);
        CHECK(sl < sizeof buf);
        CHECK(rl == (int)sl);
        CHECK(rl > 0 && rl <= MPI_MAX_ERROR_STRING - 1);
        CHECK(untouched(buf, sl + 1, sizeof buf));

        /* exactly strlen+1 bytes, ending at the guard; resultlen at the guard too */
        if (sl < sizeof buf) {
            char *g = guarded_end(sl + 1);
            int *pr = (int *)(void *)guarded_end(sizeof(int));
            fill_sentinel(g, sl + 1);
            *pr = -7;
            stage = "Error_string into exactly strlen+1 bytes at the guard";
            CHECK_RC(MPI_Error_string(ERROR_CODES[i].code, g, pr), MPI_SUCCESS);
            CHECK(*pr == (int)sl && memcmp(g, buf, sl + 1) == 0);
        }
    }
    /* Unknown codes: MPI_ERR_ARG, nothing written. */
    {
        int rl = -7;
        fill_sentinel(buf, sizeof buf);
        CHECK_RC(MPI_Error_string(9999, buf, &rl), MPI_ERR_ARG);
        CHECK_RC(MPI_Error_string(-1, buf, &rl), MPI_ERR_ARG);
        CHECK_RC(MPI_Error_string(INT_MAX, buf, &rl), MPI_ERR_ARG);
        CHECK(rl == -7 && untouched(buf, 0, sizeof buf));
    }
}

/* Bounded reads of keys: 256 bytes with no NUL ending at the guard → MPI_ERR_INFO_KEY; 255
 * characters + NUL at the guard → works; a 1-char key + NUL at the guard → works. */
static void test_bounded_keys(void) {
    MPI_Info info = MPI_INFO_NULL;
    char *k255 = repeat('k', 255);
    char *bad = unterminated_at_guard('k', 256); /* first 255 bytes equal k255 */
    char *good = at_guard(k255);
    char *shortk = at_guard("s");
    char buf[64];
    int flag, vlen, buflen;

    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, k255, "v255"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "s", "short"), MPI_SUCCESS);

    /* set */
    stage = "set with an unterminated 256-byte key at the guard";
    CHECK_RC(MPI_Info_set(info, bad, "x"), MPI_ERR_INFO_KEY);
    CHECK(nkeys(info) == 2);
    stage = "set with a 255-char key + NUL at the guard";
    CHECK_RC(MPI_Info_set(info, good, "v255b"), MPI_SUCCESS);
    stage = "set with a 1-char key + NUL at the guard";
    CHECK_RC(MPI_Info_set(info, shortk, "shortb"), MPI_SUCCESS);
    CHECK(nkeys(info) == 2);

    /* get */
    fill_sentinel(buf, sizeof buf);
    flag = 42;
    stage = "get with an unterminated 256-byte key at the guard";
    CHECK_RC(MPI_Info_get(info, bad, 60, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == 42 && untouched(buf, 0, sizeof buf));
    stage = "get with a 255-char key + NUL at the guard";
    CHECK_RC(MPI_Info_get(info, good, 60, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(buf, "v255b") == 0);
    flag = 42;
    stage = "get with a 1-char key + NUL at the guard";
    CHECK_RC(MPI_Info_get(info, shortk, 60, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(buf, "shortb") == 0);

    /* get_valuelen */
    flag = 42;
    vlen = 43;
    stage = "get_valuelen with an unterminated 256-byte key at the guard";
    CHECK_RC(MPI_Info_get_valuelen(info, bad, &vlen, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == 42 && vlen == 43);
    stage = "get_valuelen with a 255-char key + NUL at the guard";
    CHECK_RC(MPI_Info_get_valuelen(info, good, &vlen, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && vlen == 5);
    stage = "get_valuelen with a 1-char key + NUL at the guard";
    CHECK_RC(MPI_Info_get_valuelen(info, shortk, &vlen, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && vlen == 6);

    /* get_string */
    fill_sentinel(buf, sizeof buf);
    flag = 42;
    buflen = (int)sizeof buf;
    stage = "get_string with an unterminated 256-byte key at the guard";
    CHECK_RC(MPI_Info_get_string(info, bad, &buflen, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == 42 && buflen == (int)sizeof buf && untouched(buf, 0, sizeof buf));
    stage = "get_string with a 255-char key + NUL at the guard";
    CHECK_RC(MPI_Info_get_string(info, good, &buflen, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && buflen == 6 && strcmp(buf, "v255b") == 0);
    buflen = (int)sizeof buf;
    stage = "get_string with a 1-char key + NUL at the guard";
    CHECK_RC(MPI_Info_get_string(info, shortk, &buflen, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && buflen == 7 && strcmp(buf, "shortb") == 0);

    /* delete */
    stage = "delete with an unterminated 256-byte key at the guard";
    CHECK_RC(MPI_Info_delete(info, bad), MPI_ERR_INFO_KEY);
    CHECK(nkeys(info) == 2);
    stage = "delete with a 255-char key + NUL at the guard";
    CHECK_RC(MPI_Info_delete(info, good), MPI_SUCCESS);
    CHECK(nkeys(info) == 1);
    stage = "delete (missing) with a 255-char key + NUL at the guard";
    CHECK_RC(MPI_Info_delete(info, good), MPI_ERR_INFO_NOKEY);
    stage = "delete with a 1-char key + NUL at the guard";
    CHECK_RC(MPI_Info_delete(info, shortk), MPI_SUCCESS);
    CHECK(nkeys(info) == 0);

    /* On MPI_INFO_ENV (read paths) the same bound holds. */
    flag = 42;
    stage = "get on MPI_INFO_ENV with an unterminated 256-byte key at the guard";
    CHECK_RC(MPI_Info_get(MPI_INFO_ENV, bad, 60, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == 42);

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(k255);
}

/* Bounded reads of values: 1024 bytes without a NUL at the guard → MPI_ERR_INFO_VALUE;
 * 1023 chars + NUL → works; the empty value (just a NUL) at the guard → works. */
static void test_bounded_values(void) {
    MPI_Info info = MPI_INFO_NULL;
    char *v1023 = repeat('v', 1023);
    char *bad = unterminated_at_guard('v', 1024);
    char *good = at_guard(v1023);
    char *empty = at_guard("");
    char *one = at_guard("1");
    char buf[MPI_MAX_INFO_VAL + 16];
    int flag;

    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "k", "old"), MPI_SUCCESS);
    stage = "set with an unterminated 1024-byte value at the guard";
    CHECK_RC(MPI_Info_set(info, "k", bad), MPI_ERR_INFO_VALUE);
    CHECK_RC(MPI_Info_set(info, "new", bad), MPI_ERR_INFO_VALUE);
    CHECK(nkeys(info) == 1);
    fill_sentinel(buf, sizeof buf);
    flag = -1;
    CHECK_RC(MPI_Info_get(info, "k", MPI_MAX_INFO_VAL, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(buf, "old") == 0);

    stage = "set with a 1023-char value + NUL at the guard";
    CHECK_RC(MPI_Info_set(info, "k", good), MPI_SUCCESS);
    fill_sentinel(buf, sizeof buf);
    flag = -1;
    CHECK_RC(MPI_Info_get(info, "k", MPI_MAX_INFO_VAL, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && memcmp(buf, v1023, 1024) == 0 && untouched(buf, 1024, sizeof buf));

    stage = "set with the empty value (a NUL) at the guard";
    CHECK_RC(MPI_Info_set(info, "e", empty), MPI_SUCCESS);
    stage = "set with a 1-char value + NUL at the guard";
    CHECK_RC(MPI_Info_set(info, "o", one), MPI_SUCCESS);
    flag = -1;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(MPI_Info_get(info, "e", 10, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && buf[0] == '\0' && untouched(buf, 1, sizeof buf));
    CHECK_RC(MPI_Info_get(info, "o", 10, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(buf, "1") == 0 && untouched(buf, 2, sizeof buf));

    /* Key and value both unterminated at guards: the key decides (checked first). */
    {
        char *badk = unterminated_at_guard('q', 256);
        stage = "set with unterminated key and value at guards";
        CHECK_RC(MPI_Info_set(info, badk, bad), MPI_ERR_INFO_KEY);
    }
    CHECK(nkeys(info) == 3);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(v1023);
}

/* get_string outputs with exactly the bytes allowed, ending at the guard. */
static void test_get_string_guard(void) {
    MPI_Info info = MPI_INFO_NULL;
    const char *val = "0123456789";
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "k", val), MPI_SUCCESS);
    for (int bl = 1; bl <= 13; bl++) {
        int n = bl - 1 < 10 ? bl - 1 : 10;
        char *g = guarded_end((size_t)n + 1);
        int *pbl = (int *)(void *)guarded_end(sizeof(int));
        int flag = -1;
        *pbl = bl;
        fill_sentinel(g, (size_t)n + 1);
        stage = "get_string into exactly min(len,buflen-1)+1 bytes at the guard";
        CHECK_RC(MPI_Info_get_string(info, "k", pbl, g, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && *pbl == 11 && memcmp(g, val, (size_t)n) == 0 && g[n] == '\0');
    }
    {
        int bl = INT_MAX, flag = -1;
        char *g = guarded_end(11);
        stage = "get_string with *buflen INT_MAX into len+1 bytes at the guard";
        CHECK_RC(MPI_Info_get_string(info, "k", &bl, g, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && bl == 11 && strcmp(g, val) == 0);
    }
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    install_fault_handler();
    test_get_counts();
    test_nthkey_counts();
    test_error_string_counts();
    test_bounded_keys();
    test_bounded_values();
    test_get_string_guard();
    stage = "end";
    return check_report();
}
