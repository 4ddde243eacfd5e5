/* test_getstring.c - MPI_Info_get_string (docs/reference.md, "MPI_Info_get_string"): found with
 * every *buflen (large, exact, smaller, 1, 0 with value NULL), *buflen always set to len+1; missing
 * key leaves *buflen and value untouched; the empty value gives *buflen = 1; argument errors write
 * nothing. Every output buffer carries sentinels after the bytes the rule allows. */
#include "check.h"

#include <limits.h>

#define BUF 2100

/* One found-case: *buflen = bl in, expect min(len, bl-1) chars + NUL when bl > 0, nothing
 * written when bl == 0, *buflen = len+1, flag = 1, no byte after the NUL changed. */
static int found_case(MPI_Info info, const char *key, const char *val, int bl) {
    static char buf[BUF];
    int len = (int)strlen(val);
    int b = bl, flag = -4;
    int ok = 1;
    fill_sentinel(buf, BUF);
    if (MPI_Info_get_string(info, key, &b, buf, &flag) != MPI_SUCCESS) ok = 0;
    if (flag != 1) ok = 0;
    if (b != len + 1) ok = 0;
    if (bl == 0) {
        if (!untouched(buf, 0, BUF)) ok = 0;
    } else {
        int n = bl - 1 < len ? bl - 1 : len;
        if (memcmp(buf, val, (size_t)n) != 0 || buf[n] != '\0') ok = 0;
        if (!untouched(buf, (size_t)n + 1, BUF)) ok = 0;
    }
    if (!ok)
        fprintf(stderr, "get_string key=%.20s len=%d buflen in=%d: flag=%d buflen out=%d\n", key,
                len, bl, flag, b);
    return ok;
}

static void test_found(void) {
    MPI_Info info = MPI_INFO_NULL;
    const char *val = "hello world"; /* 11 chars */
    char buf[64];
    int bl, flag;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "greeting", val), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "other", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"), MPI_SUCCESS);

    /* large *buflen: whole value + NUL, *buflen = 12 */
    fill_sentinel(buf, sizeof buf);
    bl = (int)sizeof buf;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "greeting", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1);
    CHECK(bl == 12);
    CHECK(strcmp(buf, val) == 0);
    CHECK(untouched(buf, 12, sizeof buf));

    /* exactly len+1 */
    fill_sentinel(buf, sizeof buf);
    bl = 12;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "greeting", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && bl == 12 && strcmp(buf, val) == 0 && untouched(buf, 12, sizeof buf));

    /* len: one char short, still NUL-terminated; success */
    fill_sentinel(buf, sizeof buf);
    bl = 11;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "greeting", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && bl == 12);
    CHECK(strcmp(buf, "hello worl") == 0);
    CHECK(untouched(buf, 11, sizeof buf));

    /* smaller */
    fill_sentinel(buf, sizeof buf);
    bl = 5;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "greeting", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && bl == 12);
    CHECK(strcmp(buf, "hell") == 0);
    CHECK(untouched(buf, 5, sizeof buf));

    /* 1: just a NUL */
    fill_sentinel(buf, sizeof buf);
    bl = 1;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "greeting", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && bl == 12);
    CHECK(buf[0] == '\0');
    CHECK(untouched(buf, 1, sizeof buf));

    /* 0 with value NULL: size query */
    bl = 0;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "greeting", &bl, NULL, &flag), MPI_SUCCESS);
    CHECK(flag == 1);
    CHECK(bl == 12);
    /* 0 with a real buffer: nothing written */
    fill_sentinel(buf, sizeof buf);
    bl = 0;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "greeting", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && bl == 12 && untouched(buf, 0, sizeof buf));

    /* every *buflen from 0 to len+3, plus large ones */
    {
        int ok = 1;
        for (int b = 0; b <= 14; b++) ok &= found_case(info, "greeting", val, b);
        CHECK(ok);
        CHECK(found_case(info, "greeting", val, 1000));
        CHECK(found_case(info, "greeting", val, MPI_MAX_INFO_VAL));
        CHECK(found_case(info, "greeting", val, BUF));
        CHECK(found_case(info, "other", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", 7));
    }

    /* The two-call idiom: ask for the size, allocate, fetch. */
    {
        int need = 0;
        flag = 0;
        CHECK_RC(MPI_Info_get_string(info, "other", &need, NULL, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && need == 31);
        if (need > 0 && need < 10000) {
            char *p = (char *)malloc((size_t)need + 8);
            if (!p) exit(2);
            fill_sentinel(p, (size_t)need + 8);
            int b = need;
            flag = 0;
            CHECK_RC(MPI_Info_get_string(info, "other", &b, p, &flag), MPI_SUCCESS);
            CHECK(flag == 1 && b == need);
            CHECK(strcmp(p, "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz") == 0);
            CHECK(untouched(p, (size_t)need, (size_t)need + 8));
            free(p);
        }
    }

    /* *buflen follows replacements. */
    CHECK_RC(MPI_Info_set(info, "greeting", "hi"), MPI_SUCCESS);
    CHECK(found_case(info, "greeting", "hi", 0));
    CHECK(found_case(info, "greeting", "hi", 2));
    CHECK(found_case(info, "greeting", "hi", 100));
    CHECK_RC(MPI_Info_set(info, "greeting", "a considerably longer greeting"), MPI_SUCCESS);
    CHECK(found_case(info, "greeting", "a considerably longer greeting", 12));

    /* *buflen huge, buffer only len+1 bytes at the guard: nothing beyond written. */
    {
        char *g = guarded_end(3);
        CHECK_RC(MPI_Info_set(info, "two", "ab"), MPI_SUCCESS);
        bl = INT_MAX;
        flag = 0;
        CHECK_RC(MPI_Info_get_string(info, "two", &bl, g, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && bl == 3 && strcmp(g, "ab") == 0);
    }

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

static void test_limits_and_bytes(void) {
    MPI_Info info = MPI_INFO_NULL;
    char *v1023 = (char *)malloc(1024);
    if (!v1023) exit(2);
    for (int i = 0; i < 1023; i++) v1023[i] = (char)('a' + i % 26);
    v1023[1023] = '\0';
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "max", v1023), MPI_SUCCESS);
    CHECK(found_case(info, "max", v1023, MPI_MAX_INFO_VAL));     /* whole, buflen 1024 */
    CHECK(found_case(info, "max", v1023, MPI_MAX_INFO_VAL - 1)); /* 1022 chars */
    CHECK(found_case(info, "max", v1023, MPI_MAX_INFO_VAL + 1));
    CHECK(found_case(info, "max", v1023, 0));
    CHECK(found_case(info, "max", v1023, 1));
    CHECK(found_case(info, "max", v1023, 512));
    CHECK(found_case(info, "max", v1023, INT_MAX));

    /* Non-UTF-8 and spaces come back unchanged. */
    CHECK_RC(MPI_Info_set(info, "\xff\xfe", " \x80\xc1 x "), MPI_SUCCESS);
    CHECK(found_case(info, "\xff\xfe", " \x80\xc1 x ", 100));
    CHECK(found_case(info, "\xff\xfe", " \x80\xc1 x ", 3));

    /* Agrees with get_valuelen. */
    {
        int vlen = -1, flag = -1, bl = 0;
        CHECK_RC(MPI_Info_get_valuelen(info, "max", &vlen, &flag), MPI_SUCCESS);
        CHECK_RC(MPI_Info_get_string(info, "max", &bl, NULL, &flag), MPI_SUCCESS);
        CHECK(vlen == 1023 && bl == vlen + 1);
    }
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(v1023);
}

static void test_missing_and_empty(void) {
    MPI_Info info = MPI_INFO_NULL;
    char buf[64];
    int bl, flag;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);

    /* missing on an empty object */
    fill_sentinel(buf, sizeof buf);
    bl = 50;
    flag = 9;
    CHECK_RC(MPI_Info_get_string(info, "nokey", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0);
    CHECK(bl == 50);
    CHECK(untouched(buf, 0, sizeof buf));

    CHECK_RC(MPI_Info_set(info, "present", "yes"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "empty", ""), MPI_SUCCESS);

    /* missing with other keys present, *buflen 1, 0 (value NULL) */
    fill_sentinel(buf, sizeof buf);
    bl = 1;
    flag = 9;
    CHECK_RC(MPI_Info_get_string(info, "nokey", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && bl == 1 && untouched(buf, 0, sizeof buf));
    bl = 0;
    flag = 9;
    CHECK_RC(MPI_Info_get_string(info, "nokey", &bl, NULL, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && bl == 0);
    bl = 50;
    flag = 9;
    CHECK_RC(MPI_Info_get_string(info, "Present", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && bl == 50 && untouched(buf, 0, sizeof buf));
    bl = 50;
    CHECK_RC(MPI_Info_get_string(info, "present ", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && bl == 50 && untouched(buf, 0, sizeof buf));

    /* empty value: *buflen = 1, a NUL when there is room */
    fill_sentinel(buf, sizeof buf);
    bl = 10;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "empty", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1);
    CHECK(bl == 1);
    CHECK(buf[0] == '\0' && untouched(buf, 1, sizeof buf));
    bl = 0;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "empty", &bl, NULL, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && bl == 1);
    fill_sentinel(buf, sizeof buf);
    bl = 1;
    flag = 0;
    CHECK_RC(MPI_Info_get_string(info, "empty", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && bl == 1 && buf[0] == '\0' && untouched(buf, 1, sizeof buf));

    /* deleted key: missing again */
    CHECK_RC(MPI_Info_delete(info, "present"), MPI_SUCCESS);
    fill_sentinel(buf, sizeof buf);
    bl = 50;
    flag = 1;
    CHECK_RC(MPI_Info_get_string(info, "present", &bl, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && bl == 50 && untouched(buf, 0, sizeof buf));

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

static void test_errors(void) {
    MPI_Info info = MPI_INFO_NULL, dead = MPI_INFO_NULL;
    char buf[64];
    int bl, flag;
    char *k256 = (char *)malloc(257);
    if (!k256) exit(2);
    memset(k256, 'k', 256);
    k256[256] = '\0';
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "k", "value"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&dead), MPI_SUCCESS);
    {
        MPI_Info tmp = dead;
        CHECK_RC(MPI_Info_free(&tmp), MPI_SUCCESS);
    }

#define RESET()                            \
    do {                                   \
        fill_sentinel(buf, sizeof buf);    \
        bl = 20;                           \
        flag = 77;                         \
    } while (0)
#define NOTHING_WRITTEN() (bl == 20 && flag == 77 && untouched(buf, 0, sizeof buf))

    /* handles */
    RESET();
    CHECK_RC(MPI_Info_get_string(MPI_INFO_NULL, "k", &bl, buf, &flag), MPI_ERR_INFO);
    CHECK(NOTHING_WRITTEN());
    CHECK_RC(MPI_Info_get_string(dead, "k", &bl, buf, &flag), MPI_ERR_INFO);
    CHECK(NOTHING_WRITTEN());
    CHECK_RC(MPI_Info_get_string(MPI_Info_fromint(-1), "k", &bl, buf, &flag), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_get_string(MPI_INFO_NULL, NULL, NULL, NULL, NULL), MPI_ERR_INFO);
    CHECK(NOTHING_WRITTEN());

    /* keys */
    CHECK_RC(MPI_Info_get_string(info, NULL, &bl, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_get_string(info, "", &bl, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_get_string(info, k256, &bl, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_get_string(info, "", NULL, NULL, NULL), MPI_ERR_INFO_KEY);
    CHECK(NOTHING_WRITTEN());

    /* output arguments, key present and key missing alike */
    CHECK_RC(MPI_Info_get_string(info, "k", NULL, buf, &flag), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_string(info, "missing", NULL, buf, &flag), MPI_ERR_ARG);
    CHECK(NOTHING_WRITTEN());
    bl = -1;
    CHECK_RC(MPI_Info_get_string(info, "k", &bl, buf, &flag), MPI_ERR_ARG);
    CHECK(bl == -1 && flag == 77 && untouched(buf, 0, sizeof buf));
    CHECK_RC(MPI_Info_get_string(info, "missing", &bl, buf, &flag), MPI_ERR_ARG);
    CHECK(bl == -1 && flag == 77);
    bl = INT_MIN;
    CHECK_RC(MPI_Info_get_string(info, "k", &bl, buf, &flag), MPI_ERR_ARG);
    CHECK(bl == INT_MIN && flag == 77 && untouched(buf, 0, sizeof buf));
    RESET();
    CHECK_RC(MPI_Info_get_string(info, "k", &bl, NULL, &flag), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_string(info, "missing", &bl, NULL, &flag), MPI_ERR_ARG);
    CHECK(NOTHING_WRITTEN());
    CHECK_RC(MPI_Info_get_string(info, "k", &bl, buf, NULL), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_string(info, "missing", &bl, buf, NULL), MPI_ERR_ARG);
    CHECK(NOTHING_WRITTEN());
    bl = 0;
    CHECK_RC(MPI_Info_get_string(info, "k", &bl, NULL, NULL), MPI_ERR_ARG);
    CHECK(bl == 0);

#undef RESET
#undef NOTHING_WRITTEN

    /* MPI_INFO_ENV is readable through get_string. */
    {
        char b2[8];
        int b = (int)sizeof b2, f = 0;
        fill_sentinel(b2, sizeof b2);
        CHECK_RC(MPI_Info_get_string(MPI_INFO_ENV, "maxprocs", &b, b2, &f), MPI_SUCCESS);
        CHECK(f == 1 && b == 2 && strcmp(b2, "1") == 0 && untouched(b2, 2, sizeof b2));
    }

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(k256);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    test_found();
    test_limits_and_bytes();
    test_missing_and_empty();
    test_errors();
    return check_report();
}
