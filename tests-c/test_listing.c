/* test_listing.c - listing an object: get_nthkey into a buffer, then get, get_valuelen and
 * get_string of the key in that same buffer, the way programs walk an object's pairs. Here
 * the buffer is changed between the two calls in every way that could fool an implementation
 * that remembered the last key it listed (another key, a prefix, a longer key, one byte
 * changed, the key deleted or moved, another object, NULL, bad arguments), on objects read
 * many times and on new ones, with keys of lengths around every copy width. Each answer must
 * be the one a fresh lookup of the buffer's current string gives. */
#include "support.h"

#define NK 14

/* Keys of lengths 1 to 255 with distinct last bytes, and "ab", "abc", "abcd", each a prefix
 * of the next. */
static char *keys[NK];
static char values[NK][64];

static void make_keys(void) {
    static const size_t lengths[NK - 3] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 255};
    for (int k = 0; k < NK - 3; k++) {
        keys[k] = repeat('a', lengths[k]);
        keys[k][lengths[k] - 1] = (char)('A' + k);
    }
    keys[NK - 3] = strcpy(repeat('-', 2), "ab");
    keys[NK - 2] = strcpy(repeat('-', 3), "abc");
    keys[NK - 1] = strcpy(repeat('-', 4), "abcd");
    for (int i = 0; i < NK; i++) snprintf(values[i], sizeof values[i], "value of key %d", i);
}

static MPI_Info filled(void) {
    MPI_Info info;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    for (int i = 0; i < NK; i++) CHECK_RC(MPI_Info_set(info, keys[i], values[i]), MPI_SUCCESS);
    return info;
}

/* Many reads with no write in between, as a program that only reads an object makes. */
static void read_often(MPI_Info info) {
    for (int i = 0; i < 600; i++) {
        int n;
        CHECK(MPI_Info_get_nkeys(info, &n) == MPI_SUCCESS);
    }
}

/* The index of `key` among keys[], or -1. */
static int index_of(const char *key) {
    for (int i = 0; i < NK; i++)
        if (strcmp(keys[i], key) == 0) return i;
    return -1;
}

/* get, get_valuelen and get_string of the string in buf give what `expect` says: the value
 * of keys[expect], or "no such key" for -1 (MPI_ERR_INFO_KEY if buf is no valid key). */
static void check_lookups(MPI_Info info, const char *buf, int expect, const char *what) {
    char value[128];
    int flag = -3, len = -3, size = (int)sizeof value, ok = 1;
    fill_sentinel(value, sizeof value);
    if (buf[0] == '\0' || strlen(buf) > MPI_MAX_INFO_KEY - 1) {
        CHECK_RC(MPI_Info_get(info, buf, (int)sizeof value - 1, value, &flag), MPI_ERR_INFO_KEY);
        CHECK_RC(MPI_Info_get_valuelen(info, buf, &len, &flag), MPI_ERR_INFO_KEY);
        CHECK_RC(MPI_Info_get_string(info, buf, &size, value, &flag), MPI_ERR_INFO_KEY);
        CHECK(flag == -3 && len == -3 && size == (int)sizeof value && untouched(value, 0, sizeof value));
        return;
    }
    CHECK_RC(MPI_Info_get(info, buf, (int)sizeof value - 1, value, &flag), MPI_SUCCESS);
    if (expect < 0) {
        ok &= flag == 0 && untouched(value, 0, sizeof value);
    } else {
        ok &= flag == 1 && strcmp(value, values[expect]) == 0;
        ok &= untouched(value, strlen(values[expect]) + 1, sizeof value);
    }
    flag = -3;
    CHECK_RC(MPI_Info_get_valuelen(info, buf, &len, &flag), MPI_SUCCESS);
    ok &= expect < 0 ? flag == 0 && len == -3 : flag == 1 && len == (int)strlen(values[expect]);
    flag = -3;
    fill_sentinel(value, sizeof value);
    CHECK_RC(MPI_Info_get_string(info, buf, &size, value, &flag), MPI_SUCCESS);
    if (expect < 0)
        ok &= flag == 0 && size == (int)sizeof value;
    else
        ok &= flag == 1 && size == (int)strlen(values[expect]) + 1 && strcmp(value, values[expect]) == 0;
    CHECK(ok);
    if (!ok) fprintf(stderr, "%s: lookup of \"%.40s\" (expected key %d) wrong\n", what, buf, expect);
}

/* The buffer as get_nthkey(n) leaves it, then changed by `change`, then looked up. */
static void after_nthkey(MPI_Info info, int n, void (*change)(char *), const char *what) {
    char buf[MPI_MAX_INFO_KEY + 8];
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(MPI_Info_get_nthkey(info, n, buf), MPI_SUCCESS);
    if (change) change(buf);
    check_lookups(info, buf, index_of(buf), what);
}

static void to_other_key(char *buf) { strcpy(buf, keys[3]); }
static void to_prefix(char *buf) { buf[strlen(buf) - 1] = '\0'; }
static void to_longer(char *buf) { strcat(buf, "d"); }
static void first_byte(char *buf) { buf[0] = 'Z'; }
static void last_byte(char *buf) { buf[strlen(buf) - 1] ^= 0x20; }
static void to_missing(char *buf) { strcpy(buf, "not a key"); }

/* Every key listed and looked up in place, then every change of the buffer, from every key. */
static void test_changes(MPI_Info info, const char *what) {
    void (*changes[])(char *) = {NULL, to_other_key, to_prefix, to_longer, first_byte, last_byte, to_missing};
    for (size_t c = 0; c < sizeof changes / sizeof changes[0]; c++)
        for (int n = 0; n < NK; n++) after_nthkey(info, n, changes[c], what);
}

/* The key listed is deleted, or moved by deleting an earlier one, before the lookup, and the
 * object is read many times in between. */
static void test_deleted_and_moved(void) {
    char buf[MPI_MAX_INFO_KEY + 8], other[MPI_MAX_INFO_KEY + 8];
    MPI_Info info = filled();
    read_often(info);
    CHECK_RC(MPI_Info_get_nthkey(info, 5, buf), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(info, buf), MPI_SUCCESS);
    read_often(info);
    check_lookups(info, buf, -1, "deleted");

    CHECK_RC(MPI_Info_get_nthkey(info, 7, buf), MPI_SUCCESS); /* keys[8] now */
    CHECK_RC(MPI_Info_get_nthkey(info, 0, other), MPI_SUCCESS);
    CHECK_RC(MPI_Info_get_nthkey(info, 7, buf), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(info, other), MPI_SUCCESS); /* keys[8] moves to position 6 */
    read_often(info);
    check_lookups(info, buf, 8, "moved");

    /* Set again: the key goes to the end, away from the position it was listed at. */
    CHECK_RC(MPI_Info_get_nthkey(info, 2, buf), MPI_SUCCESS);
    int k = index_of(buf);
    CHECK_RC(MPI_Info_delete(info, buf), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, buf, values[k]), MPI_SUCCESS);
    read_often(info);
    check_lookups(info, buf, k, "set again");
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

/* The buffer filled from one object and looked up in another: the answer is the other's,
 * whether the other has the key at the same position (with another value), elsewhere, or not
 * at all. */
static void test_other_object(void) {
    char buf[MPI_MAX_INFO_KEY + 8];
    char second_values[NK][64];
    MPI_Info first = filled(), second, reversed, one;
    CHECK_RC(MPI_Info_create(&second), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&reversed), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&one), MPI_SUCCESS);
    for (int i = 0; i < NK; i++) {
        snprintf(second_values[i], sizeof second_values[i], "the second object's value %d", i);
        CHECK_RC(MPI_Info_set(second, keys[i], second_values[i]), MPI_SUCCESS);
        CHECK_RC(MPI_Info_set(reversed, keys[NK - 1 - i], values[NK - 1 - i]), MPI_SUCCESS);
    }
    CHECK_RC(MPI_Info_set(one, keys[4], "one"), MPI_SUCCESS);
    read_often(first);
    read_often(second);
    read_often(reversed);
    read_often(one);
    for (int n = 0; n < NK; n++) {
        char value[64];
        int flag = -1;
        CHECK_RC(MPI_Info_get_nthkey(first, n, buf), MPI_SUCCESS);
        CHECK_RC(MPI_Info_get(second, buf, (int)sizeof value - 1, value, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(value, second_values[n]) == 0);
        check_lookups(reversed, buf, n, "reversed");
        flag = -1;
        CHECK_RC(MPI_Info_get(one, buf, (int)sizeof value - 1, value, &flag), MPI_SUCCESS);
        CHECK(n == 4 ? flag == 1 && strcmp(value, "one") == 0 : flag == 0);
    }
    CHECK_RC(MPI_Info_free(&first), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&second), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&reversed), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&one), MPI_SUCCESS);
}

/* Argument errors are still found, in order, when the key is the one just listed. */
static void test_errors_after_listing(void) {
    char buf[MPI_MAX_INFO_KEY + 8], value[64];
    int flag = -5, len = -5, size;
    MPI_Info info = filled();
    read_often(info);
    CHECK_RC(MPI_Info_get_nthkey(info, 3, buf), MPI_SUCCESS);
    fill_sentinel(value, sizeof value);
    CHECK_RC(MPI_Info_get(info, buf, -1, value, &flag), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get(info, buf, 10, NULL, &flag), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get(info, buf, 10, value, NULL), MPI_ERR_ARG);
    CHECK(flag == -5 && untouched(value, 0, sizeof value));
    CHECK_RC(MPI_Info_get_valuelen(info, buf, NULL, &flag), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_valuelen(info, buf, &len, NULL), MPI_ERR_ARG);
    CHECK(len == -5 && flag == -5);
    size = -1;
    CHECK_RC(MPI_Info_get_string(info, buf, &size, value, &flag), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_string(info, buf, NULL, value, &flag), MPI_ERR_ARG);
    CHECK(flag == -5 && untouched(value, 0, sizeof value));
    /* NULL and empty keys are key errors, also right after a listing. */
    CHECK_RC(MPI_Info_get(info, NULL, 10, value, &flag), MPI_ERR_INFO_KEY);
    buf[0] = '\0';
    CHECK_RC(MPI_Info_get(info, buf, 10, value, &flag), MPI_ERR_INFO_KEY);
    CHECK_RC(MPI_Info_get_valuelen(info, buf, &len, &flag), MPI_ERR_INFO_KEY);
    CHECK(flag == -5 && len == -5 && untouched(value, 0, sizeof value));
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    make_keys();
    MPI_Info info = filled();
    test_changes(info, "new object");
    read_often(info);
    test_changes(info, "object read often");
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    test_deleted_and_moved();
    test_other_object();
    test_errors_after_listing();
    for (int i = 0; i < NK; i++) free(keys[i]);
    return check_report();
}
