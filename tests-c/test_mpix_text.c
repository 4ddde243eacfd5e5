/* test_mpix_text.c - hint text: MPIX_Info_set_from_string and MPIX_Info_set_from_file, through
 * both names, in both formats.
 *
 * LINES (ROMIO_HINTS): comments, empty and blank lines, tabs, CRLF, a key given twice, the
 * overwrite rule against keys already set, malformed lines (one word, three words, a key or
 * value past its limit) anywhere in the text with nothing set. PAIRS (PNETCDF_HINTS): blanks
 * around keys and values, empty entries, empty values, '=' in values, line ends as separators,
 * malformed entries. The text bound (MPIX_INFO_TEXT_MAX, exactly and one past, and an
 * unterminated text at a guard page), errors in checking order with the object unchanged, and
 * files: the same texts from files, a missing file, a directory, an empty path, a path too long,
 * a file past the bound, a NUL byte in a file. */
#include "mpix_support.h"

#include <limits.h>

typedef int (*text_fn)(MPI_Info, const char *, int, int);
static const text_fn FROM_STRING[2] = {MPIX_Info_set_from_string, PMPIX_Info_set_from_string};
static const text_fn FROM_FILE[2] = {MPIX_Info_set_from_file, PMPIX_Info_set_from_file};

static char tmpdir[64];

/* Writes n bytes to a new file in tmpdir and returns its path (static storage, one per slot). */
static const char *write_file(int slot, const char *bytes, size_t n) {
    static char paths[8][128];
    snprintf(paths[slot], sizeof paths[slot], "%s/hints%d", tmpdir, slot);
    FILE *f = fopen(paths[slot], "wb");
    if (!f || fwrite(bytes, 1, n, f) != n || fclose(f) != 0) {
        perror("write_file");
        exit(2);
    }
    return paths[slot];
}

/* Sets text in a new object holding `before` (nb pairs) through the string call and, with the
 * same text in a file, through the file call; both must return rc and leave the object holding
 * `after` (na pairs). */
static void text_case(int api, const char *text, int format, int overwrite, const char *const *before, int nb, int rc,
                      const char *const *after, int na) {
    for (int from_file = 0; from_file < 2; from_file++) {
        MPI_Info info = make_info(before, nb);
        int got = from_file ? FROM_FILE[api](info, write_file(0, text, strlen(text)), format, overwrite)
                            : FROM_STRING[api](info, text, format, overwrite);
        CHECK_RC(got, rc);
        int same = holds(info, after, na);
        CHECK(same);
        if (got != rc || !same) fprintf(stderr, "  text (%s, format %d): \"%s\"\n", from_file ? "file" : "string", format, text);
        CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    }
}

static const char *const NONE[] = {NULL};
static const char *const PRESET[] = {"cb_nodes", "user", "keep", "me"};

/* A malformed text, made from fmt and one string: it must fail with rc and set nothing. */
static void bad_text(int api, int format, const char *fmt, const char *arg, int rc) {
    char text[4096];
    snprintf(text, sizeof text, fmt, arg);
    text_case(api, text, format, 1, PRESET, 2, rc, PRESET, 2);
}

static void test_lines(int api) {
    const int L = MPIX_INFO_FORMAT_LINES;
    const char *text = "# system-wide hints\n"
                       "\n"
                       "cb_buffer_size 16777216\r\n"
                       "   \t  \n"
                       "\tromio_cb_write\t \tenable   \r\n"
                       "  # an indented comment\n"
                       "#no_space_comment x y z\n"
                       "cb_nodes 4\n"
                       "striping_unit 65536"; /* no line end at the end */
    const char *const parsed[] = {"cb_buffer_size", "16777216", "romio_cb_write", "enable", "cb_nodes", "4",
                                  "striping_unit", "65536"};
    text_case(api, text, L, 0, NONE, 0, MPI_SUCCESS, parsed, 4);
    /* Keys already set: kept without overwrite, replaced with it; positions kept, new keys
     * appended in the text's order. */
    const char *const under[] = {"cb_nodes", "user", "keep", "me", "cb_buffer_size", "16777216", "romio_cb_write", "enable",
                                 "striping_unit", "65536"};
    text_case(api, text, L, 0, PRESET, 2, MPI_SUCCESS, under, 5);
    const char *const over[] = {"cb_nodes", "4", "keep", "me", "cb_buffer_size", "16777216", "romio_cb_write", "enable",
                                "striping_unit", "65536"};
    text_case(api, text, L, 1, PRESET, 2, MPI_SUCCESS, over, 5);
    /* A key given twice: the first entry's position, the last entry's value. */
    const char *const twice[] = {"a", "3", "b", "2"};
    text_case(api, "a 1\nb 2\na 3\n", L, 1, NONE, 0, MPI_SUCCESS, twice, 2);
    /* Only comments and blanks, or nothing: no change. */
    text_case(api, "# nothing\n\n \t\r\n", L, 1, PRESET, 2, MPI_SUCCESS, PRESET, 2);
    text_case(api, "", L, 1, PRESET, 2, MPI_SUCCESS, PRESET, 2);
    /* The longest key and value. */
    char *longest = (char *)malloc(2000);
    char *key255 = repeat('k', 255), *value1023 = repeat('v', 1023);
    snprintf(longest, 2000, "%s %s\n", key255, value1023);
    const char *const longest_pair[] = {key255, value1023};
    text_case(api, longest, L, 0, NONE, 0, MPI_SUCCESS, longest_pair, 1);
    free(longest);
    free(key255);
    free(value1023);
}

static void test_pairs(int api) {
    const int P = MPIX_INFO_FORMAT_PAIRS;
    const char *const parsed[] = {"cb_nodes", "4", "romio_ds_read", "disable", "empty", "", "eq", "a=b", "key with blanks",
                                  "value with blanks", "next", "line"};
    text_case(api, " cb_nodes = 4 ;romio_ds_read=disable;; \t;empty=;eq=a=b; key with blanks\t= value with blanks \r\nnext=line\n",
              P, 0, NONE, 0, MPI_SUCCESS, parsed, 6);
    const char *const under[] = {"cb_nodes", "user", "keep", "me", "x", "1"};
    text_case(api, "cb_nodes=4;x=1", P, 0, PRESET, 2, MPI_SUCCESS, under, 3);
    const char *const over[] = {"cb_nodes", "4", "keep", "me", "x", "1"};
    text_case(api, "cb_nodes=4;x=1;", P, 1, PRESET, 2, MPI_SUCCESS, over, 3);
    text_case(api, ";;\n", P, 1, PRESET, 2, MPI_SUCCESS, PRESET, 2);
    /* '#' starts no comment here. */
    const char *const hash[] = {"#k", "v"};
    text_case(api, "#k=v", P, 0, NONE, 0, MPI_SUCCESS, hash, 1);
}

/* Malformed entries, in the middle of good ones, in both formats: the error (the first malformed
 * entry decides; in an entry, the key first), and nothing set. */
static void test_malformed(int api) {
    const int L = MPIX_INFO_FORMAT_LINES, P = MPIX_INFO_FORMAT_PAIRS;
    char *key256 = repeat('k', 256), *value1024 = repeat('v', 1024);
    const char *middle = "cb_nodes 16\nfresh 1\n%s\nlast 2\n";
    const struct { int format; const char *text, *arg; int rc; } bad[] = {
        {L, middle, "key_without_value", MPI_ERR_INFO_VALUE},
        {L, middle, "three words here", MPI_ERR_INFO_VALUE},
        {L, middle, "romio_cb_read enable # a comment after a hint", MPI_ERR_INFO_VALUE},
        {L, middle, "key\tvalue\tmore", MPI_ERR_INFO_VALUE},
        {L, "cb_nodes 16\n%s v\nlast 2\n", key256, MPI_ERR_INFO_KEY},
        {L, "cb_nodes 16\n%s\n", key256, MPI_ERR_INFO_KEY},
        {L, "a 1\nno_value\n%s v\n", key256, MPI_ERR_INFO_VALUE},
        {L, "cb_nodes 16\nk %s\nlast 2\n", value1024, MPI_ERR_INFO_VALUE},
        {P, "%s", "a=1;no_equals;b=2", MPI_ERR_INFO_VALUE},
        {P, "%s", "a=1; =2;b=2", MPI_ERR_INFO_KEY},
        {P, "%s", "a=1\n=\n", MPI_ERR_INFO_KEY},
        {P, "%s", "a=1;\t =x", MPI_ERR_INFO_KEY},
        {P, "a=1;%s=v;b=2", key256, MPI_ERR_INFO_KEY},
        {P, "a=1;k=%s;b=2", value1024, MPI_ERR_INFO_VALUE},
        /* The same hints are malformed in the other format. */
        {P, "%s", "cb_nodes 4\n", MPI_ERR_INFO_VALUE},
        {L, "%s", "cb_nodes=4\n", MPI_ERR_INFO_VALUE},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) bad_text(api, bad[i].format, bad[i].text, bad[i].arg, bad[i].rc);
    free(key256);
    free(value1024);
}

/* The text bound: MPIX_INFO_TEXT_MAX bytes are read, one more is MPI_ERR_ARG, and a text with
 * no NUL at all is read no further than that (it ends at an unreadable page). */
static void test_bound(int api) {
    size_t max = (size_t)MPIX_INFO_TEXT_MAX;
    char *text = (char *)malloc(max + 2);
    if (!text) exit(2);
    /* Comment lines, then one hint at the very end. */
    memset(text, '\n', max);
    memcpy(text, "# ", 2);
    memcpy(text + max - 4, "k 1\n", 4);
    text[max] = '\0';
    const char *const k1[] = {"k", "1"};
    MPI_Info info;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(FROM_STRING[api](info, text, MPIX_INFO_FORMAT_LINES, 0), MPI_SUCCESS);
    CHECK(holds(info, k1, 1));
    CHECK_RC(FROM_FILE[api](info, write_file(1, text, max), MPIX_INFO_FORMAT_PAIRS, 0), MPI_ERR_INFO_VALUE);
    CHECK_RC(MPI_Info_delete(info, "k"), MPI_SUCCESS);
    CHECK_RC(FROM_FILE[api](info, write_file(1, text, max), MPIX_INFO_FORMAT_LINES, 0), MPI_SUCCESS);
    CHECK(holds(info, k1, 1));
    CHECK_RC(MPI_Info_delete(info, "k"), MPI_SUCCESS);
    text[max] = '\n';
    text[max + 1] = '\0';
    CHECK_RC(FROM_STRING[api](info, text, MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_ARG);
    CHECK_RC(FROM_FILE[api](info, write_file(1, text, max + 1), MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_ARG);
    CHECK(holds(info, NONE, 0));
    char *unterminated = guarded_end(max + 1);
    memset(unterminated, ' ', max + 1);
    CHECK_RC(FROM_STRING[api](info, unterminated, MPIX_INFO_FORMAT_PAIRS, 0), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    free(text);
}

static void test_errors(int api) {
    MPI_Info info = make_info(PRESET, 2), dead;
    CHECK_RC(MPI_Info_create(&dead), MPI_SUCCESS);
    MPI_Info freed = dead;
    CHECK_RC(MPI_Info_free(&dead), MPI_SUCCESS);
    const char *good = write_file(2, "k 1\n", 4);
    const MPI_Info bad_handles[] = {MPI_INFO_NULL,        MPI_INFO_ENV,        freed,
                                    MPI_Info_fromint(-1), MPI_Info_fromint(0), MPI_Info_fromint(INT_MIN)};
    for (size_t h = 0; h < sizeof bad_handles / sizeof *bad_handles; h++) {
        CHECK_RC(FROM_STRING[api](bad_handles[h], NULL, 0, 0), MPI_ERR_INFO);
        CHECK_RC(FROM_STRING[api](bad_handles[h], "k 1", MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_INFO);
        CHECK_RC(FROM_FILE[api](bad_handles[h], NULL, 0, 0), MPI_ERR_INFO);
        CHECK_RC(FROM_FILE[api](bad_handles[h], good, MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_INFO);
    }
    const int bad_formats[] = {0, 3, -1, INT_MAX, INT_MIN};
    for (size_t f = 0; f < sizeof bad_formats / sizeof *bad_formats; f++) {
        CHECK_RC(FROM_STRING[api](info, "k 1", bad_formats[f], 0), MPI_ERR_ARG);
        CHECK_RC(FROM_FILE[api](info, good, bad_formats[f], 0), MPI_ERR_ARG);
        /* The format is checked before the file is opened or the text parsed. */
        CHECK_RC(FROM_FILE[api](info, "/nonexistent/hints", bad_formats[f], 0), MPI_ERR_ARG);
        CHECK_RC(FROM_STRING[api](info, "malformed", bad_formats[f], 0), MPI_ERR_ARG);
    }
    CHECK_RC(FROM_STRING[api](info, NULL, MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_ARG);
    CHECK_RC(FROM_FILE[api](info, NULL, MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_ARG);
    /* Files that cannot be read. */
    CHECK_RC(FROM_FILE[api](info, "/nonexistent/hints", MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_OTHER);
    CHECK_RC(FROM_FILE[api](info, tmpdir, MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_OTHER);
    CHECK_RC(FROM_FILE[api](info, "", MPIX_INFO_FORMAT_PAIRS, 1), MPI_ERR_OTHER);
    /* Paths: 4095 bytes is a path (that does not exist), 4096 is too long, and an unterminated
     * one is read no further than that. */
    char *path = repeat('p', 4096);
    path[0] = '/';
    CHECK_RC(FROM_FILE[api](info, path, MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_ARG);
    path[4095] = '\0';
    CHECK_RC(FROM_FILE[api](info, path, MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_OTHER);
    char *unterminated = guarded_end(4096);
    memset(unterminated, 'p', 4096);
    CHECK_RC(FROM_FILE[api](info, unterminated, MPIX_INFO_FORMAT_LINES, 0), MPI_ERR_ARG);
    /* A long path to a real file: "/tmp/././././.../hints2". */
    char *long_path = (char *)malloc(4096);
    size_t used = (size_t)snprintf(long_path, 4096, "%s", tmpdir);
    while (used + 2 + 8 < 4095) used += (size_t)snprintf(long_path + used, 4096 - used, "/.");
    snprintf(long_path + used, 4096 - used, "/hints2");
    CHECK(strlen(long_path) > 4000 && strlen(long_path) <= 4095);
    CHECK_RC(FROM_FILE[api](info, long_path, MPIX_INFO_FORMAT_LINES, 0), MPI_SUCCESS);
    const char *const plus_k[] = {"cb_nodes", "user", "keep", "me", "k", "1"};
    CHECK(holds(info, plus_k, 3));
    CHECK_RC(MPI_Info_delete(info, "k"), MPI_SUCCESS);
    /* A NUL in a file is a byte of a key or a value, and breaks it. */
    CHECK_RC(FROM_FILE[api](info, write_file(3, "a 1\nk\0y v\n", 10), MPIX_INFO_FORMAT_LINES, 1), MPI_ERR_INFO_KEY);
    CHECK_RC(FROM_FILE[api](info, write_file(3, "a=1;k=v\0", 8), MPIX_INFO_FORMAT_PAIRS, 1), MPI_ERR_INFO_VALUE);
    CHECK(holds(info, PRESET, 2));
    free(path);
    free(long_path);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_mpix_text.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    for (int api = 0; api < 2; api++) {
        test_lines(api);
        test_pairs(api);
        test_malformed(api);
        test_bound(api);
        test_errors(api);
    }
    for (int slot = 0; slot < 4; slot++) {
        char path[128];
        snprintf(path, sizeof path, "%s/hints%d", tmpdir, slot);
        unlink(path);
    }
    rmdir(tmpdir);
    return check_report();
}
