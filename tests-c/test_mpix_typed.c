/* test_mpix_typed.c - the typed reads and writes of the MPIX_ toolkit (docs/reference.md, "The
 * MPIX_ toolkit"): MPIX_Info_get_bool, _get_int, _get_int64, _get_enum, _get_nitems, _get_item,
 * _set_bool, _set_int64, each through its MPIX_ and its PMPIX_ name.
 *
 * The value rules at their boundaries (INT_MIN/INT_MAX and one past, the int64 limits, "+0",
 * "-0", "+", "1 2", " 12 ", "0x10", fullwidth digits, the empty value, empty list elements,
 * trailing commas), a missing key (flag 0, outputs untouched), every error class in checking
 * order with outputs untouched, get_item's buflen in/out rule with sentinels after the bytes it
 * may write, and the canonical text of the writes. */
#include "mpix_support.h"

#include <limits.h>
#include <stdint.h>

#define ISENT ((int)0xA5A5A5A5u)
#define LSENT ((int64_t)0xA5A5A5A5A5A5A5A5ull)

typedef int (*get_int_fn)(MPI_Info, const char *, int *, int *);
typedef int (*get_int64_fn)(MPI_Info, const char *, int64_t *, int *);
typedef int (*get_enum_fn)(MPI_Info, const char *, int, const char *const *, int *, int *);
typedef int (*get_item_fn)(MPI_Info, const char *, int, int *, char *, int *);
typedef int (*set_bool_fn)(MPI_Info, const char *, int);
typedef int (*set_int64_fn)(MPI_Info, const char *, int64_t);

/* The functions through both names: [0] MPIX_, [1] PMPIX_. */
static const get_int_fn GET_BOOL[2] = {MPIX_Info_get_bool, PMPIX_Info_get_bool};
static const get_int_fn GET_INT[2] = {MPIX_Info_get_int, PMPIX_Info_get_int};
static const get_int64_fn GET_INT64[2] = {MPIX_Info_get_int64, PMPIX_Info_get_int64};
static const get_enum_fn GET_ENUM[2] = {MPIX_Info_get_enum, PMPIX_Info_get_enum};
static const get_int_fn GET_NITEMS[2] = {MPIX_Info_get_nitems, PMPIX_Info_get_nitems};
static const get_item_fn GET_ITEM[2] = {MPIX_Info_get_item, PMPIX_Info_get_item};
static const set_bool_fn SET_BOOL[2] = {MPIX_Info_set_bool, PMPIX_Info_set_bool};
static const set_int64_fn SET_INT64[2] = {MPIX_Info_set_int64, PMPIX_Info_set_int64};

static MPI_Info obj; /* holds "k" and whatever a case sets */

/* get_int-shaped call (get_bool, get_int, get_nitems) of key "k" after setting it to text:
 * rc == want_rc; on success *value == want and flag 1; on error both outputs untouched. */
static void int_case(get_int_fn get, const char *text, int want_rc, int want) {
    CHECK_RC(MPI_Info_set(obj, "k", text), MPI_SUCCESS);
    int value = ISENT, flag = ISENT;
    int rc = get(obj, "k", &value, &flag);
    int ok = rc == want_rc && (rc == MPI_SUCCESS ? value == want && flag == 1 : value == ISENT && flag == ISENT);
    CHECK(ok);
    if (!ok) fprintf(stderr, "  value \"%s\": rc %d value %d flag %d, expected rc %d value %d\n", text, rc, value, flag, want_rc, want);
}

static void int64_case(get_int64_fn get, const char *text, int want_rc, int64_t want) {
    CHECK_RC(MPI_Info_set(obj, "k", text), MPI_SUCCESS);
    int64_t value = LSENT;
    int flag = ISENT;
    int rc = get(obj, "k", &value, &flag);
    int ok = rc == want_rc && (rc == MPI_SUCCESS ? value == want && flag == 1 : value == LSENT && flag == ISENT);
    CHECK(ok);
    if (!ok) fprintf(stderr, "  value \"%s\": rc %d value %lld flag %d\n", text, rc, (long long)value, flag);
}

/* Texts that are no integer at all, for both widths. */
static const char *const NOT_INTEGERS[] = {"+", "-", "", " ", "1 2", "0x10", "\xef\xbc\x91\xef\xbc\x92" /* "１２" */,
                                           "- 1", "+-1", "--1", "1.0", "1e3", "12a", "a12", "true", "\n12"};

static void test_integers(int api) {
    get_int_fn get = GET_INT[api];
    int_case(get, "2147483647", MPI_SUCCESS, INT_MAX);
    int_case(get, "+2147483647", MPI_SUCCESS, INT_MAX);
    int_case(get, "2147483648", MPI_ERR_INFO_VALUE, 0);
    int_case(get, "-2147483648", MPI_SUCCESS, INT_MIN);
    int_case(get, "-2147483649", MPI_ERR_INFO_VALUE, 0);
    int_case(get, "4294967296", MPI_ERR_INFO_VALUE, 0); /* would wrap to 0 */
    int_case(get, "9223372036854775807", MPI_ERR_INFO_VALUE, 0);
    int_case(get, "99999999999999999999999999", MPI_ERR_INFO_VALUE, 0);
    int_case(get, "+0", MPI_SUCCESS, 0);
    int_case(get, "-0", MPI_SUCCESS, 0);
    int_case(get, "0", MPI_SUCCESS, 0);
    int_case(get, " 12 ", MPI_SUCCESS, 12);
    int_case(get, "\t-12\t ", MPI_SUCCESS, -12);
    int_case(get, "007", MPI_SUCCESS, 7);
    for (size_t i = 0; i < sizeof NOT_INTEGERS / sizeof *NOT_INTEGERS; i++) int_case(get, NOT_INTEGERS[i], MPI_ERR_INFO_VALUE, 0);

    get_int64_fn get64 = GET_INT64[api];
    int64_case(get64, "9223372036854775807", MPI_SUCCESS, INT64_MAX);
    int64_case(get64, "9223372036854775808", MPI_ERR_INFO_VALUE, 0);
    int64_case(get64, "-9223372036854775808", MPI_SUCCESS, INT64_MIN);
    int64_case(get64, "-9223372036854775809", MPI_ERR_INFO_VALUE, 0);
    int64_case(get64, "18446744073709551616", MPI_ERR_INFO_VALUE, 0);
    int64_case(get64, "2147483648", MPI_SUCCESS, 2147483648LL);
    int64_case(get64, "-2147483649", MPI_SUCCESS, -2147483649LL);
    int64_case(get64, "+0", MPI_SUCCESS, 0);
    int64_case(get64, "-0", MPI_SUCCESS, 0);
    int64_case(get64, " 12 ", MPI_SUCCESS, 12);
    for (size_t i = 0; i < sizeof NOT_INTEGERS / sizeof *NOT_INTEGERS; i++) int64_case(get64, NOT_INTEGERS[i], MPI_ERR_INFO_VALUE, 0);
}

static void test_booleans(int api) {
    get_int_fn get = GET_BOOL[api];
    int_case(get, "true", MPI_SUCCESS, 1);
    int_case(get, "false", MPI_SUCCESS, 0);
    int_case(get, " \ttrue  ", MPI_SUCCESS, 1);
    const char *bad[] = {"TRUE", "True", "FALSE", "1", "0", "yes", "", "  ", "tru", "truee", "true false", "t rue"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) int_case(get, bad[i], MPI_ERR_INFO_VALUE, 0);
}

static void test_enums(int api) {
    get_enum_fn get = GET_ENUM[api];
    const char *const choices[] = {"enable", "disable", "automatic", "disable"};
    const struct { const char *text; int rc, index; } cases[] = {
        {"enable", MPI_SUCCESS, 0}, {"disable", MPI_SUCCESS, 1}, {" automatic\t", MPI_SUCCESS, 2},
        {"Enable", MPI_ERR_INFO_VALUE, 0}, {"enabled", MPI_ERR_INFO_VALUE, 0}, {"", MPI_ERR_INFO_VALUE, 0},
        {"auto", MPI_ERR_INFO_VALUE, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        CHECK_RC(MPI_Info_set(obj, "k", cases[i].text), MPI_SUCCESS);
        int index = ISENT, flag = ISENT;
        CHECK_RC(get(obj, "k", 4, choices, &index, &flag), cases[i].rc);
        if (cases[i].rc == MPI_SUCCESS)
            CHECK(index == cases[i].index && flag == 1);
        else
            CHECK(index == ISENT && flag == ISENT);
    }
    /* No choices: any present value matches none; an empty choice matches the empty value. */
    int index = ISENT, flag = ISENT;
    CHECK_RC(get(obj, "k", 0, NULL, &index, &flag), MPI_ERR_INFO_VALUE);
    CHECK(index == ISENT && flag == ISENT);
    const char *const with_empty[] = {"x", ""};
    CHECK_RC(MPI_Info_set(obj, "k", "   "), MPI_SUCCESS);
    CHECK_RC(get(obj, "k", 2, with_empty, &index, &flag), MPI_SUCCESS);
    CHECK(index == 1 && flag == 1);
    /* A missing key: flag 0 and index untouched, whatever the choices (still checked). */
    index = ISENT;
    CHECK_RC(get(obj, "absent", 0, NULL, &index, &flag), MPI_SUCCESS);
    CHECK(index == ISENT && flag == 0);
}

static void list_case(int api, const char *text, int want_rc, int want) {
    int_case(GET_NITEMS[api], text, want_rc, want);
}

static void test_lists(int api) {
    list_case(api, "a, b ,c", MPI_SUCCESS, 3);
    list_case(api, "single", MPI_SUCCESS, 1);
    list_case(api, "", MPI_SUCCESS, 0);
    list_case(api, " \t ", MPI_SUCCESS, 0);
    list_case(api, "a b, c d", MPI_SUCCESS, 2);
    const char *bad[] = {"a,,b", "a,", "a, ", ",a", ",", " , ", "a, ,b", "a,b,"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) list_case(api, bad[i], MPI_ERR_INFO_VALUE, 0);

    /* get_item: each element stripped, buflen in/out as get_string, sentinels after. */
    get_item_fn get = GET_ITEM[api];
    CHECK_RC(MPI_Info_set(obj, "k", " alpha , b,\tgamma delta "), MPI_SUCCESS);
    const char *items[] = {"alpha", "b", "gamma delta"};
    for (int n = 0; n < 3; n++) {
        int len = (int)strlen(items[n]);
        for (int bl = 0; bl <= len + 3; bl++) {
            char buf[32];
            fill_sentinel(buf, sizeof buf);
            int b = bl, flag = ISENT;
            CHECK_RC(get(obj, "k", n, &b, bl ? buf : NULL, &flag), MPI_SUCCESS);
            CHECK(flag == 1 && b == len + 1);
            if (bl == 0) {
                CHECK(untouched(buf, 0, sizeof buf));
            } else {
                int copied = bl - 1 < len ? bl - 1 : len;
                CHECK(memcmp(buf, items[n], (size_t)copied) == 0 && buf[copied] == '\0');
                CHECK(untouched(buf, (size_t)copied + 1, sizeof buf));
            }
        }
    }
    /* Past the last element: MPI_ERR_ARG, nothing written. */
    char buf[8];
    fill_sentinel(buf, sizeof buf);
    int b = (int)sizeof buf, flag = ISENT;
    CHECK_RC(get(obj, "k", 3, &b, buf, &flag), MPI_ERR_ARG);
    CHECK(b == (int)sizeof buf && flag == ISENT && untouched(buf, 0, sizeof buf));
    CHECK_RC(get(obj, "k", INT_MAX, &b, buf, &flag), MPI_ERR_ARG);
    /* A bad list: MPI_ERR_INFO_VALUE for every n, even one past the end. */
    CHECK_RC(MPI_Info_set(obj, "k", "a,,b"), MPI_SUCCESS);
    CHECK_RC(get(obj, "k", 0, &b, buf, &flag), MPI_ERR_INFO_VALUE);
    CHECK_RC(get(obj, "k", 5, &b, buf, &flag), MPI_ERR_INFO_VALUE);
    CHECK(b == (int)sizeof buf && flag == ISENT && untouched(buf, 0, sizeof buf));
    /* The empty list has no element 0. */
    CHECK_RC(MPI_Info_set(obj, "k", ""), MPI_SUCCESS);
    CHECK_RC(get(obj, "k", 0, &b, buf, &flag), MPI_ERR_ARG);
    /* The longest element, whole. */
    char *longest = repeat('e', MPI_MAX_INFO_VAL - 1);
    CHECK_RC(MPI_Info_set(obj, "k", longest), MPI_SUCCESS);
    char big[MPI_MAX_INFO_VAL + 8];
    fill_sentinel(big, sizeof big);
    b = MPI_MAX_INFO_VAL;
    CHECK_RC(get(obj, "k", 0, &b, big, &flag), MPI_SUCCESS);
    CHECK(b == MPI_MAX_INFO_VAL && flag == 1 && strcmp(big, longest) == 0 && untouched(big, MPI_MAX_INFO_VAL, sizeof big));
    free(longest);
}

/* A missing key: flag 0, every other output untouched, for every typed read. */
static void test_missing(int api) {
    int value = ISENT, flag = ISENT;
    int64_t value64 = LSENT;
    const char *const choices[] = {"x"};
    char buf[4];
    fill_sentinel(buf, sizeof buf);
    int b = (int)sizeof buf;
    CHECK_RC(GET_BOOL[api](obj, "absent", &value, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && value == ISENT);
    flag = ISENT;
    CHECK_RC(GET_INT[api](obj, "absent", &value, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && value == ISENT);
    flag = ISENT;
    CHECK_RC(GET_INT64[api](obj, "absent", &value64, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && value64 == LSENT);
    flag = ISENT;
    CHECK_RC(GET_ENUM[api](obj, "absent", 1, choices, &value, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && value == ISENT);
    flag = ISENT;
    CHECK_RC(GET_NITEMS[api](obj, "absent", &value, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && value == ISENT);
    flag = ISENT;
    CHECK_RC(GET_ITEM[api](obj, "absent", 0, &b, buf, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && b == (int)sizeof buf && untouched(buf, 0, sizeof buf));
}

/* Every typed read of key through one name, with its value-like outputs NULL or not
 * (with_outputs) and flag as given: each must return expect. */
static void all_reads(int api, MPI_Info h, const char *key, int with_outputs, int *flag, int expect) {
    static const char *const choices[] = {"a", "b"};
    int value = ISENT, b = 4;
    int64_t value64 = LSENT;
    char buf[4];
    CHECK_RC(GET_BOOL[api](h, key, with_outputs ? &value : NULL, flag), expect);
    CHECK_RC(GET_INT[api](h, key, with_outputs ? &value : NULL, flag), expect);
    CHECK_RC(GET_INT64[api](h, key, with_outputs ? &value64 : NULL, flag), expect);
    CHECK_RC(GET_ENUM[api](h, key, 2, choices, with_outputs ? &value : NULL, flag), expect);
    CHECK_RC(GET_NITEMS[api](h, key, with_outputs ? &value : NULL, flag), expect);
    fill_sentinel(buf, sizeof buf);
    CHECK_RC(GET_ITEM[api](h, key, 0, with_outputs ? &b : NULL, buf, flag), expect);
    CHECK(value == ISENT && value64 == LSENT && b == 4 && untouched(buf, 0, sizeof buf));
}

/* Every error class of the reads, in checking order: each case makes every argument from the
 * one named on bad, so the leftmost bad argument must decide. Outputs stay untouched. */
static void test_read_errors(int api) {
    MPI_Info freed;
    CHECK_RC(MPI_Info_create(&freed), MPI_SUCCESS);
    MPI_Info dead = freed;
    CHECK_RC(MPI_Info_free(&freed), MPI_SUCCESS);
    char *long_key = repeat('k', MPI_MAX_INFO_KEY);
    /* An unterminated key ending where an unreadable page begins: read with a bound. */
    char *unterminated = guarded_end(MPI_MAX_INFO_KEY);
    memset(unterminated, 'u', MPI_MAX_INFO_KEY);
    const MPI_Info bad_handles[] = {MPI_INFO_NULL,             dead,
                                    MPI_Info_fromint(-1),      MPI_Info_fromint(0),
                                    MPI_Info_fromint(INT_MIN), MPI_Info_fromint(INT_MAX)};
    const char *bad_keys[] = {NULL, "", long_key, unterminated};
    const char *const choices[] = {"a", "b"};
    /* For the key step, the key is there in every case where a lookup could happen. */
    CHECK_RC(MPI_Info_set(obj, "k", "1"), MPI_SUCCESS);
    int value = ISENT, flag = ISENT, b = 4;
    char buf[4];
    fill_sentinel(buf, sizeof buf);
    for (size_t h = 0; h < sizeof bad_handles / sizeof *bad_handles; h++) {
        all_reads(api, bad_handles[h], NULL, 0, NULL, MPI_ERR_INFO);
        all_reads(api, bad_handles[h], "k", 1, &flag, MPI_ERR_INFO);
    }
    for (size_t k = 0; k < sizeof bad_keys / sizeof *bad_keys; k++) all_reads(api, obj, bad_keys[k], 0, NULL, MPI_ERR_INFO_KEY);
    /* NULL outputs: MPI_ERR_ARG whether or not the key is there. */
    all_reads(api, obj, "k", 0, &flag, MPI_ERR_ARG);
    all_reads(api, obj, "absent", 0, &flag, MPI_ERR_ARG);
    all_reads(api, obj, "k", 1, NULL, MPI_ERR_ARG);
    all_reads(api, obj, "absent", 1, NULL, MPI_ERR_ARG);
    CHECK(flag == ISENT);

    /* get_enum's own arguments, left to right, before the lookup. */
    const char *const with_null[] = {"a", NULL};
    char *long_choice = repeat('c', MPI_MAX_INFO_VAL);
    char *unterminated_choice = guarded_end(MPI_MAX_INFO_VAL);
    memset(unterminated_choice, 'c', MPI_MAX_INFO_VAL);
    const char *const with_long[] = {"a", long_choice};
    const char *const with_unterminated[] = {unterminated_choice};
    const char *const longest_choice[] = {long_choice + 1}; /* 1023 characters: fine */
    const char *keys[] = {"k", "absent"};
    for (int i = 0; i < 2; i++) {
        CHECK_RC(GET_ENUM[api](obj, keys[i], -1, choices, &value, &flag), MPI_ERR_ARG);
        CHECK_RC(GET_ENUM[api](obj, keys[i], INT_MIN, NULL, NULL, NULL), MPI_ERR_ARG);
        CHECK_RC(GET_ENUM[api](obj, keys[i], 1, NULL, &value, &flag), MPI_ERR_ARG);
        CHECK_RC(GET_ENUM[api](obj, keys[i], 2, with_null, &value, &flag), MPI_ERR_ARG);
        CHECK_RC(GET_ENUM[api](obj, keys[i], 2, with_long, &value, &flag), MPI_ERR_ARG);
        CHECK_RC(GET_ENUM[api](obj, keys[i], 1, with_unterminated, &value, &flag), MPI_ERR_ARG);
        CHECK_RC(GET_ENUM[api](obj, keys[i], 1, longest_choice, NULL, &flag), MPI_ERR_ARG);
        CHECK_RC(GET_ENUM[api](obj, keys[i], 1, longest_choice, &value, NULL), MPI_ERR_ARG);
    }
    CHECK(value == ISENT && flag == ISENT);
    CHECK_RC(GET_ENUM[api](obj, "k", 1, longest_choice, &value, &flag), MPI_ERR_INFO_VALUE);
    /* A bad key still comes before a bad nchoices. */
    CHECK_RC(GET_ENUM[api](obj, NULL, -1, NULL, NULL, NULL), MPI_ERR_INFO_KEY);

    /* get_item's own arguments: n, buflen, *buflen, item (only with *buflen > 0), flag. */
    for (int i = 0; i < 2; i++) {
        b = 4;
        CHECK_RC(GET_ITEM[api](obj, keys[i], -1, &b, buf, &flag), MPI_ERR_ARG);
        CHECK_RC(GET_ITEM[api](obj, keys[i], 0, NULL, buf, &flag), MPI_ERR_ARG);
        b = -1;
        CHECK_RC(GET_ITEM[api](obj, keys[i], 0, &b, buf, &flag), MPI_ERR_ARG);
        b = 4;
        CHECK_RC(GET_ITEM[api](obj, keys[i], 0, &b, NULL, &flag), MPI_ERR_ARG);
        CHECK_RC(GET_ITEM[api](obj, keys[i], 0, &b, buf, NULL), MPI_ERR_ARG);
        CHECK(b == 4 && flag == ISENT && untouched(buf, 0, sizeof buf));
    }
    b = 0;
    CHECK_RC(GET_ITEM[api](obj, "k", 0, &b, NULL, &flag), MPI_SUCCESS); /* NULL item is fine then */
    CHECK(b == 2 && flag == 1);

    /* MPI_INFO_ENV can be read: maxprocs is 1. */
    flag = ISENT;
    CHECK_RC(GET_INT[api](MPI_INFO_ENV, "maxprocs", &value, &flag), MPI_SUCCESS);
    CHECK(value == 1 && flag == 1);
    free(long_key);
    free(long_choice);
}

/* The writes: canonical text, position kept when replacing, errors in order, object unchanged
 * on error. */
static void test_writes(int api) {
    MPI_Info info;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(SET_BOOL[api](info, "on", 1), MPI_SUCCESS);
    CHECK_RC(SET_BOOL[api](info, "off", 0), MPI_SUCCESS);
    CHECK_RC(SET_BOOL[api](info, "odd", -7), MPI_SUCCESS);
    CHECK_RC(SET_INT64[api](info, "max", INT64_MAX), MPI_SUCCESS);
    CHECK_RC(SET_INT64[api](info, "min", INT64_MIN), MPI_SUCCESS);
    CHECK_RC(SET_INT64[api](info, "zero", 0), MPI_SUCCESS);
    CHECK_RC(SET_INT64[api](info, "neg", -42), MPI_SUCCESS);
    const char *const expect[] = {"on", "true", "off", "false", "odd", "true", "max", "9223372036854775807",
                                  "min", "-9223372036854775808", "zero", "0", "neg", "-42"};
    CHECK(holds(info, expect, 7));
    /* Replacing keeps the position. */
    CHECK_RC(SET_BOOL[api](info, "on", 0), MPI_SUCCESS);
    CHECK_RC(SET_INT64[api](info, "max", 1000), MPI_SUCCESS);
    const char *const replaced[] = {"on", "false", "off", "false", "odd", "true", "max", "1000",
                                    "min", "-9223372036854775808", "zero", "0", "neg", "-42"};
    CHECK(holds(info, replaced, 7));

    /* Errors, in order; the object is unchanged. */
    MPI_Info dead;
    CHECK_RC(MPI_Info_create(&dead), MPI_SUCCESS);
    MPI_Info freed = dead;
    CHECK_RC(MPI_Info_free(&dead), MPI_SUCCESS);
    char *long_key = repeat('k', MPI_MAX_INFO_KEY);
    const MPI_Info bad_handles[] = {MPI_INFO_NULL, MPI_INFO_ENV, freed, MPI_Info_fromint(-1),
                                    MPI_Info_fromint(0)};
    for (size_t h = 0; h < sizeof bad_handles / sizeof *bad_handles; h++) {
        CHECK_RC(SET_BOOL[api](bad_handles[h], NULL, 1), MPI_ERR_INFO);
        CHECK_RC(SET_INT64[api](bad_handles[h], NULL, 1), MPI_ERR_INFO);
        CHECK_RC(SET_INT64[api](bad_handles[h], "fine", 1), MPI_ERR_INFO);
    }
    const char *bad_keys[] = {NULL, "", long_key};
    for (size_t k = 0; k < sizeof bad_keys / sizeof *bad_keys; k++) {
        CHECK_RC(SET_BOOL[api](info, bad_keys[k], 1), MPI_ERR_INFO_KEY);
        CHECK_RC(SET_INT64[api](info, bad_keys[k], 1), MPI_ERR_INFO_KEY);
    }
    CHECK(holds(info, replaced, 7));
    /* MPI_INFO_ENV is unchanged: maxprocs still 1. */
    int value = 0, flag = 0;
    CHECK_RC(MPIX_Info_get_int(MPI_INFO_ENV, "maxprocs", &value, &flag), MPI_SUCCESS);
    CHECK(value == 1 && flag == 1);

    /* Round trips: what set_int64 writes, get_int64 reads back, and get_int when it fits. */
    for (int i = 0; i < 2000; i++) {
        int64_t x = (int64_t)(((uint64_t)rnd(0xFFFFFFFFu) << 32) | rnd(0xFFFFFFFFu));
        if (i % 4 == 1) x = (int64_t)(int)x;          /* within int */
        if (i % 4 == 2) x = (int64_t)INT_MAX + rnd(3) - 1; /* around the int limits */
        if (i % 4 == 3) x = (int64_t)INT_MIN + rnd(3) - 1;
        int64_t back = LSENT;
        int small = ISENT;
        CHECK_RC(SET_INT64[api](info, "n", x), MPI_SUCCESS);
        CHECK_RC(GET_INT64[api](info, "n", &back, &flag), MPI_SUCCESS);
        CHECK(back == x);
        int fits = x >= INT_MIN && x <= INT_MAX;
        CHECK_RC(GET_INT[api](info, "n", &small, &flag), fits ? MPI_SUCCESS : MPI_ERR_INFO_VALUE);
        CHECK(fits ? small == (int)x : small == ISENT);
    }
    CHECK_RC(SET_BOOL[api](info, "b", 5), MPI_SUCCESS);
    CHECK_RC(GET_BOOL[api](info, "b", &value, &flag), MPI_SUCCESS);
    CHECK(value == 1);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(long_key);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    CHECK_RC(MPI_Info_create(&obj), MPI_SUCCESS);
    for (int api = 0; api < 2; api++) {
        test_integers(api);
        test_booleans(api);
        test_enums(api);
        test_lists(api);
        test_missing(api);
        test_read_errors(api);
        test_writes(api);
    }
    CHECK_RC(MPI_Info_free(&obj), MPI_SUCCESS);
    return check_report();
}
