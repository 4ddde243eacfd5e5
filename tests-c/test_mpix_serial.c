/* test_mpix_serial.c - MPIX_Info_serialize and MPIX_Info_deserialize (and MPIX_Info_equal on
 * what they make), through both names.
 *
 * The exact bytes of the documented format for small objects; buflen in/out as get_string
 * (the size asked with 0 and NULL, exact and larger buffers with sentinels after, shorter ones
 * getting the beginning); every defect of a serialized form refused with its class and no output
 * written; input read no further than buflen (it ends at an unreadable page); errors in checking
 * order; round trips serialize -> deserialize -> equal over random objects (random bytes, the
 * longest keys and values, across the index threshold), with the bytes serialized again
 * identical, the same pairs in another order giving other bytes, and MPI_INFO_ENV. */
#include "mpix_support.h"

#include <limits.h>

#define ISENT ((int)0xA5A5A5A5u)
#define ISENT_HANDLE MPI_Info_fromint(ISENT)

typedef int (*serialize_fn)(MPI_Info, int *, void *);
typedef int (*deserialize_fn)(const void *, int, MPI_Info *);
static const serialize_fn SERIALIZE[2] = {MPIX_Info_serialize, PMPIX_Info_serialize};
static const deserialize_fn DESERIALIZE[2] = {MPIX_Info_deserialize, PMPIX_Info_deserialize};

/* A malloc'd serialization of info, its size in *size. */
static unsigned char *serialized(int api, MPI_Info info, int *size) {
    int n = 0;
    CHECK_RC(SERIALIZE[api](info, &n, NULL), MPI_SUCCESS);
    unsigned char *buf = (unsigned char *)malloc((size_t)n + 1);
    if (!buf) exit(2);
    int got = n;
    CHECK_RC(SERIALIZE[api](info, &got, buf), MPI_SUCCESS);
    CHECK(got == n);
    *size = n;
    return buf;
}

/* Serializes info and deserializes the bytes: the new object must be equal to info, in order.
 * Returns the new object, and the bytes (malloc'd) in *bytes and their count in *size. */
static MPI_Info round_trip(int api, MPI_Info info, unsigned char **bytes, int *size) {
    *bytes = serialized(api, info, size);
    MPI_Info back = ISENT_HANDLE;
    CHECK_RC(DESERIALIZE[api](*bytes, *size, &back), MPI_SUCCESS);
    int equal = ISENT;
    CHECK_RC(MPIX_Info_equal(back, info, 1, &equal), MPI_SUCCESS);
    CHECK(equal == 1);
    return back;
}

/* The expected bytes of {"ab" = "xyz", "k" = ""}, per docs/mpix.md. */
static const unsigned char SMALL[] = {'M', 'P', 'I', 'I', 0, 0, 0, 1, 0, 0, 0, 2,  0,   0,   0,   2, 'a', 'b', 0, 0, 0,
                                      3,   'x', 'y', 'z', 0, 0, 0, 1, 'k', 0, 0, 0, 0};

static void test_bytes(int api) {
    const char *const pairs[] = {"ab", "xyz", "k", ""};
    MPI_Info info = make_info(pairs, 2), empty;
    int size;
    unsigned char *bytes = serialized(api, info, &size);
    CHECK(size == (int)sizeof SMALL && memcmp(bytes, SMALL, sizeof SMALL) == 0);
    free(bytes);
    CHECK_RC(MPI_Info_create(&empty), MPI_SUCCESS);
    bytes = serialized(api, empty, &size);
    CHECK(size == 12 && memcmp(bytes, "MPII\0\0\0\1\0\0\0\0", 12) == 0);
    free(bytes);

    /* buflen in/out: every size from 0 to past the end; the first min(size, *buflen) bytes are
     * written and not one more; *buflen is always set to the size. */
    for (int room = 0; room <= (int)sizeof SMALL + 4; room++) {
        unsigned char buf[64];
        fill_sentinel(buf, sizeof buf);
        int b = room;
        CHECK_RC(SERIALIZE[api](info, &b, room ? buf : NULL), MPI_SUCCESS);
        CHECK(b == (int)sizeof SMALL);
        size_t written = (size_t)room < sizeof SMALL ? (size_t)room : sizeof SMALL;
        CHECK(memcmp(buf, SMALL, written) == 0 && untouched(buf, written, sizeof buf));
        /* A beginning alone is refused, and writes nothing. */
        if (written < sizeof SMALL) {
            MPI_Info out = ISENT_HANDLE;
            CHECK_RC(DESERIALIZE[api](buf, (int)written, &out), MPI_ERR_ARG);
            CHECK(out == ISENT_HANDLE);
        }
    }
    /* Deserialized: the same pairs, in order; equal ordered. */
    MPI_Info back = ISENT_HANDLE;
    CHECK_RC(DESERIALIZE[api](SMALL, (int)sizeof SMALL, &back), MPI_SUCCESS);
    CHECK(holds(back, pairs, 2));
    int equal = ISENT;
    CHECK_RC(MPIX_Info_equal(back, info, 1, &equal), MPI_SUCCESS);
    CHECK(equal == 1);
    MPI_Info *all[] = {&info, &empty, &back};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) CHECK_RC(MPI_Info_free(all[i]), MPI_SUCCESS);
}

/* SMALL with `n` bytes at offset `at` replaced (or, with at < 0, cut to `n` bytes, or with
 * extra > 0 that many bytes appended): deserialize must return rc and write nothing. The input
 * ends where an unreadable page begins, so reading past buflen faults. */
static void defect(int api, int at, const void *with, size_t n, size_t cut, size_t extra, int rc) {
    unsigned char bytes[sizeof SMALL + 8];
    memcpy(bytes, SMALL, sizeof SMALL);
    size_t len = sizeof SMALL;
    if (with) memcpy(bytes + at, with, n);
    if (cut) len = cut;
    if (extra) {
        memset(bytes + len, 'x', extra);
        len += extra;
    }
    unsigned char *input = (unsigned char *)guarded_end(len);
    memcpy(input, bytes, len);
    MPI_Info out = ISENT_HANDLE;
    int got = DESERIALIZE[api](input, (int)len, &out);
    CHECK_RC(got, rc);
    CHECK(out == ISENT_HANDLE);
    if (got != rc) fprintf(stderr, "  defect at %d, cut %zu, extra %zu\n", at, cut, extra);
    munmap((void *)((uintptr_t)input & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1)), (size_t)sysconf(_SC_PAGESIZE) * 2);
}

static void test_defects(int api) {
    /* SMALL: header 0..11; pair 1: key length 12..15, "ab" 16..17, value length 18..21,
     * "xyz" 22..24; pair 2: key length 25..28, "k" 29, value length 30..33. */
    for (size_t cut = 1; cut < sizeof SMALL; cut++) defect(api, 0, NULL, 0, cut, 0, MPI_ERR_ARG);
    defect(api, 0, NULL, 0, 0, 1, MPI_ERR_ARG);                          /* a trailing byte */
    defect(api, 0, "MPIX", 4, 0, 0, MPI_ERR_ARG);                       /* magic */
    defect(api, 0, "mpii", 4, 0, 0, MPI_ERR_ARG);
    defect(api, 4, "\0\0\0\2", 4, 0, 0, MPI_ERR_ARG);                   /* version 2 */
    defect(api, 4, "\1\0\0\1", 4, 0, 0, MPI_ERR_ARG);                   /* version in the other byte order */
    defect(api, 4, "\0\0\0\0", 4, 0, 0, MPI_ERR_ARG);
    defect(api, 8, "\0\0\0\3", 4, 0, 0, MPI_ERR_ARG);                   /* more pairs than the bytes hold */
    defect(api, 8, "\2\0\0\0", 4, 0, 0, MPI_ERR_ARG);                   /* count in the other byte order */
    defect(api, 8, "\xff\xff\xff\xff", 4, 0, 0, MPI_ERR_ARG);
    defect(api, 8, "\0\0\0\1", 4, 0, 0, MPI_ERR_ARG);                   /* fewer pairs: trailing bytes */
    defect(api, 8, "\0\0\0\0", 4, 0, 0, MPI_ERR_ARG);
    defect(api, 12, "\0\0\0\0", 4, 0, 0, MPI_ERR_INFO_KEY);             /* empty key */
    defect(api, 12, "\0\0\1\0", 4, 0, 0, MPI_ERR_INFO_KEY);             /* key length 256 */
    defect(api, 12, "\xff\xff\xff\xff", 4, 0, 0, MPI_ERR_INFO_KEY);
    defect(api, 12, "\0\0\0\xff", 4, 0, 0, MPI_ERR_ARG);                /* 255: past the end */
    defect(api, 12, "\0\0\0\3", 4, 0, 0, MPI_ERR_INFO_KEY);             /* key "ab\0": a NUL */
    defect(api, 12, "\0\0\0\1", 4, 0, 0, MPI_ERR_INFO_VALUE);           /* value length "b\0\0\0" */
    defect(api, 16, "\0", 1, 0, 0, MPI_ERR_INFO_KEY);                   /* NUL in the key */
    defect(api, 18, "\0\0\4\0", 4, 0, 0, MPI_ERR_INFO_VALUE);           /* value length 1024 */
    defect(api, 18, "\x80\0\0\0", 4, 0, 0, MPI_ERR_INFO_VALUE);
    defect(api, 18, "\0\0\3\xff", 4, 0, 0, MPI_ERR_ARG);                /* 1023: past the end */
    defect(api, 23, "\0", 1, 0, 0, MPI_ERR_INFO_VALUE);                 /* NUL in the value */
    defect(api, 29, "\0", 1, 0, 0, MPI_ERR_INFO_KEY);
    defect(api, 25, "\0\0\0\2", 4, 0, 0, MPI_ERR_INFO_KEY);             /* key "k\0" */
    defect(api, 25, "\0\0\0\0", 4, 0, 0, MPI_ERR_INFO_KEY);
    defect(api, 30, "\0\0\0\1", 4, 0, 0, MPI_ERR_ARG);                  /* value past the end */
    /* The first defect in the bytes decides: a bad version before a NUL in the first key, and
     * that NUL before a value length past the end. */
    unsigned char two[sizeof SMALL];
    memcpy(two, SMALL, sizeof SMALL);
    two[5] = 9;  /* version */
    two[16] = 0; /* NUL in the key */
    MPI_Info out = ISENT_HANDLE;
    CHECK_RC(DESERIALIZE[api](two, (int)sizeof two, &out), MPI_ERR_ARG);
    two[5] = 0;
    two[21] = 0x40; /* value length past the end, after the key's NUL */
    CHECK_RC(DESERIALIZE[api](two, (int)sizeof two, &out), MPI_ERR_INFO_KEY);
    CHECK(out == ISENT_HANDLE);
    /* A key given twice, everything else right. */
    const unsigned char dup[] = {'M', 'P', 'I', 'I', 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 'k', 0, 0, 0, 1, 'a',
                                 0,   0,   0,   1,   'k', 0, 0, 0, 1, 'b'};
    CHECK_RC(DESERIALIZE[api](dup, (int)sizeof dup, &out), MPI_ERR_ARG);
    CHECK(out == ISENT_HANDLE);
    /* The longest key and value are accepted, one more byte of either is not. */
    char *key255 = repeat('k', 255), *value1023 = repeat('\xff', 1023);
    const char *const kv[] = {key255, value1023};
    MPI_Info big = make_info(kv, 1), back = ISENT_HANDLE;
    int size;
    unsigned char *bytes = serialized(api, big, &size);
    CHECK(size == 12 + 8 + 255 + 1023);
    CHECK_RC(DESERIALIZE[api](bytes, size, &back), MPI_SUCCESS);
    CHECK(holds(back, kv, 1));
    CHECK_RC(MPI_Info_free(&back), MPI_SUCCESS);
    free(key255);
    free(value1023);
    free(bytes);
    CHECK_RC(MPI_Info_free(&big), MPI_SUCCESS);
}

static void test_errors(int api) {
    const char *const pairs[] = {"ab", "xyz", "k", ""};
    MPI_Info info = make_info(pairs, 2), dead;
    CHECK_RC(MPI_Info_create(&dead), MPI_SUCCESS);
    MPI_Info freed = dead;
    CHECK_RC(MPI_Info_free(&dead), MPI_SUCCESS);
    unsigned char buf[64];
    fill_sentinel(buf, sizeof buf);
    int b = (int)sizeof buf;
    const MPI_Info bad[] = {MPI_INFO_NULL,           freed,
                            MPI_Info_fromint(-1),      MPI_Info_fromint(0),
                            MPI_Info_fromint(INT_MIN), MPI_Info_fromint(INT_MAX)};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_RC(SERIALIZE[api](bad[i], NULL, NULL), MPI_ERR_INFO);
        CHECK_RC(SERIALIZE[api](bad[i], &b, buf), MPI_ERR_INFO);
    }
    CHECK_RC(SERIALIZE[api](info, NULL, buf), MPI_ERR_ARG);
    b = -1;
    CHECK_RC(SERIALIZE[api](info, &b, buf), MPI_ERR_ARG);
    CHECK(b == -1);
    b = INT_MIN;
    CHECK_RC(SERIALIZE[api](info, &b, NULL), MPI_ERR_ARG);
    b = 1;
    CHECK_RC(SERIALIZE[api](info, &b, NULL), MPI_ERR_ARG);
    CHECK(b == 1 && untouched(buf, 0, sizeof buf));
    /* MPI_INFO_ENV can be serialized. */
    int size;
    unsigned char *env;
    MPI_Info env_copy = round_trip(api, MPI_INFO_ENV, &env, &size);
    CHECK_RC(MPI_Info_free(&env_copy), MPI_SUCCESS);

    /* deserialize: buf, buflen, info, then the bytes. */
    MPI_Info out = ISENT_HANDLE;
    CHECK_RC(DESERIALIZE[api](NULL, (int)sizeof SMALL, &out), MPI_ERR_ARG);
    CHECK_RC(DESERIALIZE[api](NULL, 0, &out), MPI_ERR_ARG);
    CHECK_RC(DESERIALIZE[api](SMALL, -1, &out), MPI_ERR_ARG);
    CHECK_RC(DESERIALIZE[api](SMALL, INT_MIN, NULL), MPI_ERR_ARG);
    CHECK_RC(DESERIALIZE[api](SMALL, (int)sizeof SMALL, NULL), MPI_ERR_ARG);
    CHECK_RC(DESERIALIZE[api](SMALL, 0, &out), MPI_ERR_ARG);
    CHECK(out == ISENT_HANDLE);
    free(env);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

/* A random key or value of length 1..max (or 0..max for values): bytes 1..255, often printable,
 * sometimes the longest. */
static void random_text(char *out, size_t max, int may_be_empty) {
    size_t len = rnd(8) == 0 ? max : (size_t)rnd(may_be_empty ? 20 : 19) + (may_be_empty ? 0 : 1);
    for (size_t i = 0; i < len; i++) out[i] = (char)(rnd(4) ? 'a' + rnd(26) : 1 + rnd(255));
    out[len] = '\0';
}

static void test_round_trips(int api) {
    for (int round = 0; round < 300; round++) {
        MPI_Info info, reversed;
        CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
        CHECK_RC(MPI_Info_create(&reversed), MPI_SUCCESS);
        int n = (int)rnd(round % 10 == 0 ? 200 : 20);
        char key[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL];
        for (int i = 0; i < n; i++) {
            random_text(key, MPI_MAX_INFO_KEY - 1, 0);
            random_text(value, MPI_MAX_INFO_VAL - 1, 1);
            CHECK_RC(MPI_Info_set(info, key, value), MPI_SUCCESS);
        }
        int nkeys = 0;
        CHECK_RC(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
        for (int i = nkeys - 1; i >= 0; i--) {
            char v[MPI_MAX_INFO_VAL];
            int flag;
            CHECK_RC(MPI_Info_get_nthkey(info, i, key), MPI_SUCCESS);
            CHECK_RC(MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, v, &flag), MPI_SUCCESS);
            CHECK_RC(MPI_Info_set(reversed, key, v), MPI_SUCCESS);
        }
        int size, again_size, equal = ISENT;
        unsigned char *bytes;
        MPI_Info back = round_trip(api, info, &bytes, &size);
        unsigned char *again = serialized(api, back, &again_size);
        CHECK(again_size == size && memcmp(again, bytes, (size_t)size) == 0);
        free(again);
        /* The same pairs in another order: unordered-equal, other bytes (when the order differs). */
        CHECK_RC(MPIX_Info_equal(reversed, info, 0, &equal), MPI_SUCCESS);
        CHECK(equal == 1);
        unsigned char *other = serialized(api, reversed, &again_size);
        CHECK(again_size == size);
        CHECK((memcmp(other, bytes, (size_t)size) == 0) == (nkeys < 2));
        CHECK_RC(MPIX_Info_equal(reversed, info, 1, &equal), MPI_SUCCESS);
        CHECK(equal == (nkeys < 2));
        free(other);
        /* A duplicate of the original serializes to the same bytes. */
        MPI_Info copy;
        CHECK_RC(MPI_Info_dup(info, &copy), MPI_SUCCESS);
        unsigned char *dup_bytes = serialized(api, copy, &again_size);
        CHECK(again_size == size && memcmp(dup_bytes, bytes, (size_t)size) == 0);
        free(dup_bytes);
        free(bytes);
        MPI_Info *all[] = {&info, &reversed, &back, &copy};
        for (size_t i = 0; i < sizeof all / sizeof *all; i++) CHECK_RC(MPI_Info_free(all[i]), MPI_SUCCESS);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    for (int api = 0; api < 2; api++) {
        test_bytes(api);
        test_defects(api);
        test_errors(api);
        test_round_trips(api);
    }
    return check_report();
}
