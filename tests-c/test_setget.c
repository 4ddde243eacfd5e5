/* test_setget.c - MPI_Info_set / MPI_Info_get / MPI_Info_get_valuelen basics
 * (docs/reference.md, "Functions" and "Strings").
 *
 * Adding and replacing pairs, the key and value length limits (255/1023 characters), the
 * empty value, the empty key, case sensitivity, spaces and non-UTF-8 bytes kept exactly,
 * lookups of missing keys (outputs untouched), many keys, and set/get on a dup of
 * MPI_INFO_ENV. */
#include "support.h"

#include <limits.h>

#define BIG 8192

/* 1 if info holds key with exactly the value `expect` (compared byte for byte), found via
 * MPI_Info_get (with a full-size buffer) and MPI_Info_get_valuelen. */
static int has(MPI_Info info, const char *key, const char *expect) {
    char buf[MPI_MAX_INFO_VAL + 16];
    int flag = -3, vlen = -3;
    size_t el = strlen(expect);
    fill_sentinel(buf, sizeof buf);
    if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL, buf, &flag) != MPI_SUCCESS) return 0;
    if (flag != 1) return 0;
    if (memcmp(buf, expect, el) != 0 || buf[el] != '\0') return 0;
    if (!untouched(buf, el + 1, sizeof buf)) return 0;
    flag = -3;
    if (MPI_Info_get_valuelen(info, key, &vlen, &flag) != MPI_SUCCESS) return 0;
    return flag == 1 && vlen == (int)el;
}

/* 1 if key is absent: get says flag 0 and writes nothing, get_valuelen says flag 0 and
 * leaves *valuelen alone. */
static int lacks(MPI_Info info, const char *key) {
    char buf[64];
    int flag = 7, vlen = 4242;
    fill_sentinel(buf, sizeof buf);
    if (MPI_Info_get(info, key, (int)sizeof buf - 1, buf, &flag) != MPI_SUCCESS) return 0;
    if (flag != 0 || !untouched(buf, 0, sizeof buf)) return 0;
    flag = 7;
    if (MPI_Info_get_valuelen(info, key, &vlen, &flag) != MPI_SUCCESS) return 0;
    return flag == 0 && vlen == 4242;
}

static int nkeys(MPI_Info info) {
    int n = -1;
    if (MPI_Info_get_nkeys(info, &n) != MPI_SUCCESS) return -1;
    return n;
}

static void test_add_replace(void) {
    MPI_Info info = MPI_INFO_NULL;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK(nkeys(info) == 0);
    CHECK(lacks(info, "a"));

    CHECK_RC(MPI_Info_set(info, "a", "1"), MPI_SUCCESS);
    CHECK(nkeys(info) == 1);
    CHECK(has(info, "a", "1"));
    CHECK(lacks(info, "b"));

    CHECK_RC(MPI_Info_set(info, "b", "two"), MPI_SUCCESS);
    CHECK(nkeys(info) == 2);
    CHECK(has(info, "a", "1"));
    CHECK(has(info, "b", "two"));

    /* Replace with a longer value, a shorter one, the same one, the empty one. */
    CHECK_RC(MPI_Info_set(info, "a", "a much longer value than before"), MPI_SUCCESS);
    CHECK(nkeys(info) == 2);
    CHECK(has(info, "a", "a much longer value than before"));
    CHECK(has(info, "b", "two"));
    CHECK_RC(MPI_Info_set(info, "a", "x"), MPI_SUCCESS);
    CHECK(nkeys(info) == 2);
    CHECK(has(info, "a", "x"));
    CHECK_RC(MPI_Info_set(info, "a", "x"), MPI_SUCCESS);
    CHECK(nkeys(info) == 2);
    CHECK(has(info, "a", "x"));
    CHECK_RC(MPI_Info_set(info, "a", ""), MPI_SUCCESS);
    CHECK(nkeys(info) == 2);
    CHECK(has(info, "a", ""));
    CHECK_RC(MPI_Info_set(info, "a", "back"), MPI_SUCCESS);
    CHECK(has(info, "a", "back"));
    CHECK(has(info, "b", "two"));

    /* The library copies key and value: changing the caller's buffers afterwards must not
     * change the object. */
    char kbuf[16], vbuf[16];
    strcpy(kbuf, "copied");
    strcpy(vbuf, "orig");
    CHECK_RC(MPI_Info_set(info, kbuf, vbuf), MPI_SUCCESS);
    strcpy(kbuf, "XXXXXX");
    strcpy(vbuf, "YYYY");
    CHECK(has(info, "copied", "orig"));
    CHECK(lacks(info, "XXXXXX"));
    CHECK(nkeys(info) == 3);

    /* A value that looks like a key=value list is just bytes. */
    CHECK_RC(MPI_Info_set(info, "list", "a=1,b=2, c = 3"), MPI_SUCCESS);
    CHECK(has(info, "list", "a=1,b=2, c = 3"));
    CHECK(lacks(info, "b=2"));

    /* A key that is a prefix of another is a different key. */
    CHECK_RC(MPI_Info_set(info, "cop", "short"), MPI_SUCCESS);
    CHECK(has(info, "cop", "short"));
    CHECK(has(info, "copied", "orig"));
    CHECK(lacks(info, "copie"));
    CHECK(lacks(info, "copiedX"));

    /* Deleted key: gone for get and get_valuelen. */
    CHECK_RC(MPI_Info_delete(info, "b"), MPI_SUCCESS);
    CHECK(lacks(info, "b"));
    CHECK(has(info, "a", "back"));

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    CHECK(info == MPI_INFO_NULL);
}

static void test_key_limits(void) {
    MPI_Info info = MPI_INFO_NULL;
    char *k255 = repeat('k', 255), *k256 = repeat('k', 256), *k5000 = repeat('k', 5000);
    char *k254 = repeat('k', 254);
    char *d, *d2;
    size_t dl, dl2;
    char buf[64];
    int flag, vlen;

    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "other", "o"), MPI_SUCCESS);

    /* 255 characters: the longest key, accepted and returned whole. */
    CHECK_RC(MPI_Info_set(info, k255, "v255"), MPI_SUCCESS);
    CHECK(nkeys(info) == 2);
    CHECK(has(info, k255, "v255"));
    CHECK(lacks(info, k254));
    {
        char key[MPI_MAX_INFO_KEY + 8];
        fill_sentinel(key, sizeof key);
        CHECK_RC(MPI_Info_get_nthkey(info, 1, key), MPI_SUCCESS);
        CHECK(memcmp(key, k255, 255) == 0 && key[255] == '\0');
        CHECK(untouched(key, 256, sizeof key));
    }
    CHECK_RC(MPI_Info_set(info, k255, "replaced"), MPI_SUCCESS);
    CHECK(nkeys(info) == 2);
    CHECK(has(info, k255, "replaced"));

    /* 256 characters: too long. Its first 255 characters equal an existing key, so an
     * implementation that truncated would replace that key's value. Nothing changes. */
    d = dump(info, &dl);
    CHECK_RC(MPI_Info_set(info, k256, "bad"), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_set(info, k5000, "bad"), MPI_ERR_INFO_KEY);
    /* key is checked before value */
    {
        char *v1024 = repeat('v', 1024);
        CHECK_RC(MPI_Info_set(info, k256, v1024), MPI_ERR_INFO_KEY);
        free(v1024);
    }
    d2 = dump(info, &dl2);
    CHECK(same_dump(d, dl, d2, dl2));
    free(d2);
    CHECK(has(info, k255, "replaced"));
    CHECK(nkeys(info) == 2);

    /* Lookups and delete with a too-long key: MPI_ERR_INFO_KEY, outputs untouched. */
    fill_sentinel(buf, sizeof buf);
    flag = 77;
    CHECK_RC(MPI_Info_get(info, k256, (int)sizeof buf - 1, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == 77);
    CHECK(untouched(buf, 0, sizeof buf));
    flag = 77;
    vlen = 88;
    CHECK_RC(MPI_Info_get_valuelen(info, k256, &vlen, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == 77 && vlen == 88);
    CHECK_RC(MPI_Info_delete(info, k256), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_get(info, k5000, (int)sizeof buf - 1, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == 77 && untouched(buf, 0, sizeof buf));
    d2 = dump(info, &dl2);
    CHECK(same_dump(d, dl, d2, dl2));
    free(d2);
    free(d);

    /* The 255-char key can be deleted and set again. */
    CHECK_RC(MPI_Info_delete(info, k255), MPI_SUCCESS);
    CHECK(lacks(info, k255));
    CHECK(nkeys(info) == 1);
    CHECK_RC(MPI_Info_set(info, k255, "again"), MPI_SUCCESS);
    CHECK(has(info, k255, "again"));

    /* The 255-char key + NUL at the very end of readable memory. */
    {
        char *g = guarded_end(256);
        memcpy(g, k255, 256);
        CHECK_RC(MPI_Info_set(info, g, "guarded"), MPI_SUCCESS);
        CHECK(has(info, g, "guarded"));
        CHECK(has(info, k255, "guarded"));
        CHECK(nkeys(info) == 2);
    }

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(k254);
    free(k255);
    free(k256);
    free(k5000);
}

static void test_value_limits(void) {
    MPI_Info info = MPI_INFO_NULL;
    char *v1023 = repeat('v', 1023), *v1024 = repeat('w', 1024), *v9000 = repeat('x', 9000);
    char *d, *d2;
    size_t dl, dl2;

    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "keep", "old"), MPI_SUCCESS);

    /* 1023 characters: the longest value. */
    CHECK_RC(MPI_Info_set(info, "long", v1023), MPI_SUCCESS);
    CHECK(has(info, "long", v1023));
    CHECK(nkeys(info) == 2);
    {
        int vlen = -1, flag = -1;
        CHECK_RC(MPI_Info_get_valuelen(info, "long", &vlen, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && vlen == 1023);
    }

    /* 1024 characters: too long, for a new key and for an existing one. Nothing changes. */
    d = dump(info, &dl);
    CHECK_RC(MPI_Info_set(info, "new", v1024), MPI_ERR_INFO_VALUE);
    CHECK_RC(MPI_Info_set(info, "keep", v1024), MPI_ERR_INFO_VALUE);
    CHECK_RC(MPI_Info_set(info, "long", v1024), MPI_ERR_INFO_VALUE);
    CHECK_RC(MPI_Info_set(info, "keep", v9000), MPI_ERR_INFO_VALUE);
    CHECK_RC(MPI_Info_set(info, "keep", NULL), MPI_ERR_INFO_VALUE);
    CHECK_RC(MPI_Info_set(info, "new", NULL), MPI_ERR_INFO_VALUE);
    d2 = dump(info, &dl2);
    CHECK(same_dump(d, dl, d2, dl2));
    free(d2);
    free(d);
    CHECK(lacks(info, "new"));
    CHECK(has(info, "keep", "old"));
    CHECK(has(info, "long", v1023));
    CHECK(nkeys(info) == 2);

    /* Replace the 1023-char value with a short one and back. */
    CHECK_RC(MPI_Info_set(info, "long", "s"), MPI_SUCCESS);
    CHECK(has(info, "long", "s"));
    CHECK_RC(MPI_Info_set(info, "keep", v1023), MPI_SUCCESS);
    CHECK(has(info, "keep", v1023));

    /* 1023 chars + NUL at the end of readable memory. */
    {
        char *g = guarded_end(1024);
        memcpy(g, v1023, 1024);
        g[0] = 'G';
        CHECK_RC(MPI_Info_set(info, "guardval", g), MPI_SUCCESS);
        CHECK(has(info, "guardval", g));
    }

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(v1023);
    free(v1024);
    free(v9000);
}

static void test_empty(void) {
    MPI_Info info = MPI_INFO_NULL;
    char buf[32];
    int flag, vlen;
    char *d, *d2;
    size_t dl, dl2;

    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);

    /* The empty value is valid. */
    CHECK_RC(MPI_Info_set(info, "e", ""), MPI_SUCCESS);
    CHECK(nkeys(info) == 1);
    fill_sentinel(buf, sizeof buf);
    flag = -5;
    CHECK_RC(MPI_Info_get(info, "e", (int)sizeof buf - 1, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1);
    CHECK(buf[0] == '\0');
    CHECK(untouched(buf, 1, sizeof buf));
    vlen = -5;
    flag = -5;
    CHECK_RC(MPI_Info_get_valuelen(info, "e", &vlen, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && vlen == 0);
    /* empty value, valuelen 0: just the NUL */
    fill_sentinel(buf, sizeof buf);
    flag = -5;
    CHECK_RC(MPI_Info_get(info, "e", 0, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && buf[0] == '\0' && untouched(buf, 1, sizeof buf));

    /* An empty value replaced by a non-empty one and back. */
    CHECK_RC(MPI_Info_set(info, "e", "full"), MPI_SUCCESS);
    CHECK(has(info, "e", "full"));
    CHECK_RC(MPI_Info_set(info, "e", ""), MPI_SUCCESS);
    CHECK(has(info, "e", ""));
    CHECK(nkeys(info) == 1);

    /* The empty key is invalid everywhere, and changes nothing. */
    d = dump(info, &dl);
    CHECK_RC(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_set(info, "", ""), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_set(info, "", NULL), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_set(info, NULL, "x"), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_delete(info, ""), MPI_ERR_INFO_KEY);
    fill_sentinel(buf, sizeof buf);
    flag = 9;
    CHECK_RC(MPI_Info_get(info, "", (int)sizeof buf - 1, buf, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == 9 && untouched(buf, 0, sizeof buf));
    vlen = 9;
    CHECK_RC(MPI_Info_get_valuelen(info, "", &vlen, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == 9 && vlen == 9);
    d2 = dump(info, &dl2);
    CHECK(same_dump(d, dl, d2, dl2));
    free(d2);
    free(d);
    CHECK(nkeys(info) == 1);

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

static void test_case_and_spaces(void) {
    MPI_Info info = MPI_INFO_NULL;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);

    /* Case-sensitive keys. */
    CHECK_RC(MPI_Info_set(info, "Key", "upper"), MPI_SUCCESS);
    CHECK(lacks(info, "key"));
    CHECK(lacks(info, "KEY"));
    CHECK_RC(MPI_Info_set(info, "key", "lower"), MPI_SUCCESS);
    CHECK(nkeys(info) == 2);
    CHECK(has(info, "Key", "upper"));
    CHECK(has(info, "key", "lower"));
    CHECK_RC(MPI_Info_set(info, "KEY", "caps"), MPI_SUCCESS);
    CHECK(nkeys(info) == 3);
    CHECK(has(info, "Key", "upper"));
    CHECK(has(info, "key", "lower"));
    CHECK(has(info, "KEY", "caps"));
    CHECK_RC(MPI_Info_delete(info, "key"), MPI_SUCCESS);
    CHECK(lacks(info, "key"));
    CHECK(has(info, "Key", "upper"));
    CHECK(has(info, "KEY", "caps"));
    CHECK_RC(MPI_Info_delete(info, "kEY"), MPI_ERR_INFO_NOKEY);
    CHECK(nkeys(info) == 2);
    /* Values are case-sensitive too. */
    CHECK_RC(MPI_Info_set(info, "mixed", "TrUe"), MPI_SUCCESS);
    CHECK(has(info, "mixed", "TrUe"));
    CHECK(!has(info, "mixed", "true"));

    /* Spaces kept exactly in keys. */
    CHECK_RC(MPI_Info_set(info, " a ", "spaced"), MPI_SUCCESS);
    CHECK(lacks(info, "a"));
    CHECK(lacks(info, " a"));
    CHECK(lacks(info, "a "));
    CHECK_RC(MPI_Info_set(info, "a", "plain"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "a ", "trailing"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, " a", "leading"), MPI_SUCCESS);
    CHECK(nkeys(info) == 7);
    CHECK(has(info, " a ", "spaced"));
    CHECK(has(info, "a", "plain"));
    CHECK(has(info, "a ", "trailing"));
    CHECK(has(info, " a", "leading"));
    CHECK(lacks(info, "  a "));
    /* A key made only of blanks is an ordinary key in C. */
    CHECK_RC(MPI_Info_set(info, " ", "one blank"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "  ", "two blanks"), MPI_SUCCESS);
    CHECK(has(info, " ", "one blank"));
    CHECK(has(info, "  ", "two blanks"));
    CHECK(nkeys(info) == 9);
    /* nthkey returns the blanks too */
    {
        char key[MPI_MAX_INFO_KEY];
        fill_sentinel(key, sizeof key);
        CHECK_RC(MPI_Info_get_nthkey(info, 3, key), MPI_SUCCESS);
        CHECK(strcmp(key, " a ") == 0 && untouched(key, 4, sizeof key));
    }

    /* Spaces kept exactly in values. */
    CHECK_RC(MPI_Info_set(info, "v", "  v  "), MPI_SUCCESS);
    CHECK(has(info, "v", "  v  "));
    CHECK_RC(MPI_Info_set(info, "v", "   "), MPI_SUCCESS);
    CHECK(has(info, "v", "   "));
    CHECK_RC(MPI_Info_set(info, "v", "\ttab and newline\n"), MPI_SUCCESS);
    CHECK(has(info, "v", "\ttab and newline\n"));
    CHECK_RC(MPI_Info_set(info, "tab\tkey", "x"), MPI_SUCCESS);
    CHECK(has(info, "tab\tkey", "x"));
    CHECK(lacks(info, "tab key"));

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

static void test_non_utf8(void) {
    MPI_Info info = MPI_INFO_NULL;
    const char *k1 = "\xff\xfe\x80";
    const char *v1 = "\x80\xc0\xff v \xfe";
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, k1, v1), MPI_SUCCESS);
    CHECK(has(info, k1, v1));
    CHECK(nkeys(info) == 1);
    {
        char key[MPI_MAX_INFO_KEY];
        fill_sentinel(key, sizeof key);
        CHECK_RC(MPI_Info_get_nthkey(info, 0, key), MPI_SUCCESS);
        CHECK(memcmp(key, k1, 4) == 0 && untouched(key, 4, sizeof key));
    }
    /* Non-UTF-8 key with a valid value, valid key with a non-UTF-8 value. */
    CHECK_RC(MPI_Info_set(info, "\xc3\x28", "ok"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "plain", "\xed\xa0\x80\xf8\x88\x80\x80\x80"), MPI_SUCCESS);
    CHECK(has(info, "\xc3\x28", "ok"));
    CHECK(has(info, "plain", "\xed\xa0\x80\xf8\x88\x80\x80\x80"));
    /* No lossy conversion: U+FFFD (the replacement character) is a different key. */
    CHECK(lacks(info, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"));
    CHECK(lacks(info, "\xef\xbf\xbd("));
    /* Bytes differing only in the high bit are different keys. */
    CHECK(lacks(info, "\x7f\x7e"));
    /* UTF-8 letters differing in case are different keys (no Unicode folding). */
    CHECK_RC(MPI_Info_set(info, "\xc3\xa9", "e-acute"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "\xc3\x89", "E-acute"), MPI_SUCCESS);
    CHECK(has(info, "\xc3\xa9", "e-acute"));
    CHECK(has(info, "\xc3\x89", "E-acute"));
    CHECK(nkeys(info) == 5);
    /* Every byte value 1..255 in a key and in a value. */
    {
        char all[256];
        for (int i = 0; i < 255; i++) all[i] = (char)(i + 1);
        all[255] = '\0';
        CHECK_RC(MPI_Info_set(info, all, all), MPI_SUCCESS);
        CHECK(has(info, all, all));
        CHECK_RC(MPI_Info_delete(info, all), MPI_SUCCESS);
        CHECK(lacks(info, all));
    }
    /* Replacing the non-UTF-8 key's value. */
    CHECK_RC(MPI_Info_set(info, k1, "\xfe"), MPI_SUCCESS);
    CHECK(has(info, k1, "\xfe"));
    CHECK_RC(MPI_Info_delete(info, k1), MPI_SUCCESS);
    CHECK(lacks(info, k1));
    CHECK(nkeys(info) == 4);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

static void test_missing(void) {
    MPI_Info info = MPI_INFO_NULL;
    char buf[MPI_MAX_INFO_VAL + 8];
    int flag, vlen;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);

    /* On an empty object. */
    fill_sentinel(buf, sizeof buf);
    flag = 123;
    CHECK_RC(MPI_Info_get(info, "missing", MPI_MAX_INFO_VAL, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0);
    CHECK(untouched(buf, 0, sizeof buf));
    flag = 123;
    vlen = -77;
    CHECK_RC(MPI_Info_get_valuelen(info, "missing", &vlen, &flag), MPI_SUCCESS);
    CHECK(flag == 0);
    CHECK(vlen == -77);

    /* With other keys present, and with valuelen 0 (still untouched: not even a NUL). */
    CHECK_RC(MPI_Info_set(info, "present", "value"), MPI_SUCCESS);
    fill_sentinel(buf, sizeof buf);
    flag = 123;
    CHECK_RC(MPI_Info_get(info, "absent", 0, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && untouched(buf, 0, sizeof buf));
    flag = 123;
    CHECK_RC(MPI_Info_get(info, "absent", MPI_MAX_INFO_VAL - 1, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && untouched(buf, 0, sizeof buf));
    flag = 123;
    vlen = 31337;
    CHECK_RC(MPI_Info_get_valuelen(info, "absent", &vlen, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && vlen == 31337);

    /* Found after the misses, with flag set from a nonzero and from a zero start. */
    flag = 0;
    vlen = 0;
    CHECK_RC(MPI_Info_get_valuelen(info, "present", &vlen, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && vlen == 5);
    flag = 55;
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(MPI_Info_get(info, "present", MPI_MAX_INFO_VAL, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(buf, "value") == 0 && untouched(buf, 6, sizeof buf));

    /* After delete: missing again. */
    CHECK_RC(MPI_Info_delete(info, "present"), MPI_SUCCESS);
    fill_sentinel(buf, sizeof buf);
    flag = 1;
    CHECK_RC(MPI_Info_get(info, "present", MPI_MAX_INFO_VAL, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && untouched(buf, 0, sizeof buf));
    flag = 1;
    vlen = 5;
    CHECK_RC(MPI_Info_get_valuelen(info, "present", &vlen, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && vlen == 5);
    CHECK(nkeys(info) == 0);

    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

static void test_many(void) {
    enum { N = 5000 };
    MPI_Info info = MPI_INFO_NULL;
    char key[64], val[128];
    int ok = 1;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "key.%d", i);
        snprintf(val, sizeof val, "value-%d-%.*s", i * 7, i % 50, "..................................................");
        if (MPI_Info_set(info, key, val) != MPI_SUCCESS) ok = 0;
    }
    CHECK(ok);
    CHECK(nkeys(info) == N);
    ok = 1;
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "key.%d", i);
        snprintf(val, sizeof val, "value-%d-%.*s", i * 7, i % 50, "..................................................");
        if (!has(info, key, val)) {
            if (ok) fprintf(stderr, "many: key %s wrong\n", key);
            ok = 0;
        }
    }
    CHECK(ok);
    CHECK(lacks(info, "key.5000"));
    CHECK(lacks(info, "key.-1"));
    CHECK(lacks(info, "key."));
    /* Replace every other value; count stays N; all values right. */
    ok = 1;
    for (int i = 0; i < N; i += 2) {
        snprintf(key, sizeof key, "key.%d", i);
        snprintf(val, sizeof val, "new%d", i);
        if (MPI_Info_set(info, key, val) != MPI_SUCCESS) ok = 0;
    }
    CHECK(ok);
    CHECK(nkeys(info) == N);
    ok = 1;
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "key.%d", i);
        if (i % 2 == 0)
            snprintf(val, sizeof val, "new%d", i);
        else
            snprintf(val, sizeof val, "value-%d-%.*s", i * 7, i % 50, "..................................................");
        if (!has(info, key, val)) {
            if (ok) fprintf(stderr, "many after replace: key %s wrong\n", key);
            ok = 0;
        }
    }
    CHECK(ok);
    /* Delete every third; the rest still there. */
    ok = 1;
    for (int i = 0; i < N; i += 3) {
        snprintf(key, sizeof key, "key.%d", i);
        if (MPI_Info_delete(info, key) != MPI_SUCCESS) ok = 0;
    }
    CHECK(ok);
    CHECK(nkeys(info) == N - (N + 2) / 3);
    ok = 1;
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "key.%d", i);
        if (i % 3 == 0) {
            if (!lacks(info, key)) ok = 0;
        } else {
            if (i % 2 == 0)
                snprintf(val, sizeof val, "new%d", i);
            else
                snprintf(val, sizeof val, "value-%d-%.*s", i * 7, i % 50, "..................................................");
            if (!has(info, key, val)) ok = 0;
        }
    }
    CHECK(ok);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

static void test_env_dup(void) {
    MPI_Info d = MPI_INFO_NULL, d2 = MPI_INFO_NULL;
    char *env_before, *env_after;
    size_t lb, la;
    int n_env = nkeys(MPI_INFO_ENV);

    /* maxprocs, soft, thread_level are always known ("MPI_INFO_ENV and MPI_Info_create_env") */
    CHECK(n_env >= 3);
    CHECK(has(MPI_INFO_ENV, "maxprocs", "1"));
    CHECK(has(MPI_INFO_ENV, "soft", "1"));
    CHECK(has(MPI_INFO_ENV, "thread_level", "MPI_THREAD_MULTIPLE"));
    env_before = dump(MPI_INFO_ENV, &lb);

    CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &d), MPI_SUCCESS);
    CHECK(d != MPI_INFO_ENV && d != MPI_INFO_NULL);
    CHECK(nkeys(d) == n_env);
    CHECK(has(d, "maxprocs", "1"));
    CHECK(has(d, "thread_level", "MPI_THREAD_MULTIPLE"));

    /* set/get on the dup */
    CHECK_RC(MPI_Info_set(d, "mykey", "myval"), MPI_SUCCESS);
    CHECK(has(d, "mykey", "myval"));
    CHECK(nkeys(d) == n_env + 1);
    CHECK_RC(MPI_Info_set(d, "maxprocs", "7"), MPI_SUCCESS);
    CHECK(has(d, "maxprocs", "7"));
    CHECK(nkeys(d) == n_env + 1);
    CHECK_RC(MPI_Info_set(d, "soft", ""), MPI_SUCCESS);
    CHECK(has(d, "soft", ""));
    CHECK_RC(MPI_Info_delete(d, "thread_level"), MPI_SUCCESS);
    CHECK(lacks(d, "thread_level"));
    CHECK(nkeys(d) == n_env);

    /* MPI_INFO_ENV itself: read-only and unchanged. */
    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, "mykey", "myval"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, "maxprocs", "9"), MPI_ERR_INFO);
    CHECK(lacks(MPI_INFO_ENV, "mykey"));
    CHECK(has(MPI_INFO_ENV, "maxprocs", "1"));
    CHECK(has(MPI_INFO_ENV, "soft", "1"));
    CHECK(has(MPI_INFO_ENV, "thread_level", "MPI_THREAD_MULTIPLE"));
    env_after = dump(MPI_INFO_ENV, &la);
    CHECK(same_dump(env_before, lb, env_after, la));
    free(env_after);

    /* A second dup of ENV starts fresh, unaffected by the first. */
    CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &d2), MPI_SUCCESS);
    CHECK(d2 != d);
    CHECK(lacks(d2, "mykey"));
    CHECK(has(d2, "maxprocs", "1"));
    CHECK(nkeys(d2) == n_env);
    {
        char *dd;
        size_t ld;
        dd = dump(d2, &ld);
        CHECK(same_dump(env_before, lb, dd, ld));
        free(dd);
    }
    CHECK_RC(MPI_Info_free(&d), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&d2), MPI_SUCCESS);
    env_after = dump(MPI_INFO_ENV, &la);
    CHECK(same_dump(env_before, lb, env_after, la));
    free(env_after);
    free(env_before);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    test_add_replace();
    test_key_limits();
    test_value_limits();
    test_empty();
    test_case_and_spaces();
    test_non_utf8();
    test_missing();
    test_many();
    test_env_dup();
    return check_report();
}
