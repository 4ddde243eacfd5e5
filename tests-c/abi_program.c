/* abi_program.c - an MPI program written against the MPI-5.0 standard ABI's mpi.h, as a user
 * of the info chapter writes one: it knows nothing of this library's own header.
 *
 * make test builds it with tests-c/abi/mpi.h (a standard ABI mpi.h the project wrote from the
 * standard's published values) and links it with -lmpi_info_abi and with libmpi_info_abi.a:
 * a program compiled against another standard ABI header runs with this library. It is also
 * built with an mpi.h that only includes include/mpi_info_abi.h: code written for either
 * header compiles with the other and behaves the same.
 *
 * Every info function and both error functions, with exact results: values, flags, lengths,
 * truncation, the order of keys, duplicates that do not follow their source, MPI_INFO_ENV
 * read-only, MPI_ERR_INFO for MPI_INFO_NULL and freed handles, and handles through an int. */
/* For the test harness (check.h's guard pages), before any system header an mpi.h includes. */
#define _GNU_SOURCE 1
#include <mpi.h>

#include "support.h"

static void test_constants(void) {
    /* The error codes (tests-c/check.h's table), as this mpi.h declares them. */
    for (int i = 0; i < N_ERROR_CODES; i++) CHECK(ERROR_CODES[i].code == ERROR_CODES[i].number);
    CHECK(MPI_THREAD_MULTIPLE == 4096);
    CHECK(MPI_MAX_INFO_KEY == 256);
    CHECK(MPI_MAX_INFO_VAL == 1024);
    CHECK(MPI_MAX_ERROR_STRING == 512);
    CHECK(sizeof(MPI_Info) == sizeof(void *));
    CHECK(MPI_INFO_NULL != MPI_INFO_ENV);
}

/* set, get, get_valuelen, get_string, get_nkeys, get_nthkey, delete on one object. */
static void test_one_object(void) {
    MPI_Info info = MPI_INFO_NULL;
    char value[MPI_MAX_INFO_VAL], key[MPI_MAX_INFO_KEY];
    int flag, nkeys, len;

    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK(info != MPI_INFO_NULL && info != MPI_INFO_ENV);
    CHECK_RC(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
    CHECK(nkeys == 0);

    CHECK_RC(MPI_Info_set(info, "striping_factor", "16"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "cb_nodes", "4"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "romio_cb_write", "enable"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "empty", ""), MPI_SUCCESS);
    CHECK_RC(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
    CHECK(nkeys == 4);

    /* The keys in the order they were set; a replaced value keeps its key's place. */
    CHECK_RC(MPI_Info_set(info, "cb_nodes", "8"), MPI_SUCCESS);
    {
        const char *order[] = {"striping_factor", "cb_nodes", "romio_cb_write", "empty"};
        for (int i = 0; i < 4; i++) {
            memset(key, '#', sizeof key);
            CHECK_RC(MPI_Info_get_nthkey(info, i, key), MPI_SUCCESS);
            CHECK(strcmp(key, order[i]) == 0);
            CHECK(key[strlen(order[i]) + 1] == '#');
        }
    }
    CHECK_RC(MPI_Info_get_nthkey(info, 4, key), MPI_ERR_ARG);
    CHECK_RC(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);

    /* get: the whole value, a truncated one, a missing key. */
    memset(value, '#', sizeof value);
    flag = -1;
    CHECK_RC(MPI_Info_get(info, "romio_cb_write", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "enable") == 0 && value[7] == '#');
    memset(value, '#', sizeof value);
    CHECK_RC(MPI_Info_get(info, "romio_cb_write", 3, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "ena") == 0 && value[4] == '#');
    CHECK_RC(MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "8") == 0);
    CHECK_RC(MPI_Info_get(info, "empty", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && value[0] == '\0');
    memset(value, '#', sizeof value);
    flag = -1;
    CHECK_RC(MPI_Info_get(info, "cb_buffer_size", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && value[0] == '#');

    /* get_valuelen */
    len = -1;
    CHECK_RC(MPI_Info_get_valuelen(info, "striping_factor", &len, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && len == 2);
    len = -1;
    CHECK_RC(MPI_Info_get_valuelen(info, "nothing", &len, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && len == -1);

    /* get_string: the size first, then the value; a short buffer gets the beginning. */
    len = 0;
    flag = -1;
    CHECK_RC(MPI_Info_get_string(info, "romio_cb_write", &len, NULL, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && len == 7);
    memset(value, '#', sizeof value);
    CHECK_RC(MPI_Info_get_string(info, "romio_cb_write", &len, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && len == 7 && strcmp(value, "enable") == 0 && value[7] == '#');
    len = 4;
    memset(value, '#', sizeof value);
    CHECK_RC(MPI_Info_get_string(info, "romio_cb_write", &len, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && len == 7 && strcmp(value, "ena") == 0 && value[4] == '#');
    len = 4;
    CHECK_RC(MPI_Info_get_string(info, "nothing", &len, value, &flag), MPI_SUCCESS);
    CHECK(flag == 0 && len == 4);

    /* The longest key and value; one more character is an error. */
    {
        char *longest_key = repeat('k', MPI_MAX_INFO_KEY - 1);
        char *longest_value = repeat('v', MPI_MAX_INFO_VAL - 1);
        char *too_long_key = repeat('k', MPI_MAX_INFO_KEY);
        char *too_long_value = repeat('v', MPI_MAX_INFO_VAL);
        CHECK_RC(MPI_Info_set(info, longest_key, longest_value), MPI_SUCCESS);
        CHECK_RC(MPI_Info_get(info, longest_key, MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(value, longest_value) == 0);
        CHECK_RC(MPI_Info_get_nthkey(info, 4, key), MPI_SUCCESS);
        CHECK(strcmp(key, longest_key) == 0);
        CHECK_RC(MPI_Info_delete(info, longest_key), MPI_SUCCESS);
        CHECK_RC(MPI_Info_set(info, too_long_key, "x"), MPI_ERR_INFO_KEY);
        CHECK_RC(MPI_Info_set(info, "k", too_long_value), MPI_ERR_INFO_VALUE);
        CHECK_RC(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY);
        CHECK_RC(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
        CHECK(nkeys == 4);
        free(longest_key);
        free(longest_value);
        free(too_long_key);
        free(too_long_value);
    }

    /* delete: the later keys move down; a missing key is MPI_ERR_INFO_NOKEY. */
    CHECK_RC(MPI_Info_delete(info, "cb_nodes"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_delete(info, "cb_nodes"), MPI_ERR_INFO_NOKEY);
    CHECK_RC(MPI_Info_get_nkeys(info, &nkeys), MPI_SUCCESS);
    CHECK(nkeys == 3);
    CHECK_RC(MPI_Info_get_nthkey(info, 1, key), MPI_SUCCESS);
    CHECK(strcmp(key, "romio_cb_write") == 0);
    CHECK_RC(MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 0);

    /* free sets the handle to MPI_INFO_NULL; a saved copy of it names nothing any more. */
    {
        MPI_Info saved = info;
        CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
        CHECK(info == MPI_INFO_NULL);
        CHECK_RC(MPI_Info_get_nkeys(saved, &nkeys), MPI_ERR_INFO);
        CHECK_RC(MPI_Info_set(saved, "k", "v"), MPI_ERR_INFO);
        CHECK_RC(MPI_Info_free(&saved), MPI_ERR_INFO);
    }
}

/* A duplicate holds the same pairs in the same order and does not follow its source. */
static void test_dup(void) {
    MPI_Info a = MPI_INFO_NULL, b = MPI_INFO_NULL;
    char value[MPI_MAX_INFO_VAL], key[MPI_MAX_INFO_KEY];
    int flag, nkeys;

    CHECK_RC(MPI_Info_create(&a), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(a, "first", "1"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(a, "second", "2"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_dup(a, &b), MPI_SUCCESS);
    CHECK(b != a && b != MPI_INFO_NULL);
    CHECK_RC(MPI_Info_get_nkeys(b, &nkeys), MPI_SUCCESS);
    CHECK(nkeys == 2);
    CHECK_RC(MPI_Info_get_nthkey(b, 0, key), MPI_SUCCESS);
    CHECK(strcmp(key, "first") == 0);
    CHECK_RC(MPI_Info_get_nthkey(b, 1, key), MPI_SUCCESS);
    CHECK(strcmp(key, "second") == 0);

    CHECK_RC(MPI_Info_set(a, "first", "changed in a"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(b, "third", "only in b"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_get(b, "first", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "1") == 0);
    CHECK_RC(MPI_Info_get(a, "third", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 0);

    CHECK_RC(MPI_Info_free(&a), MPI_SUCCESS);
    CHECK_RC(MPI_Info_get(b, "second", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "2") == 0);
    CHECK_RC(MPI_Info_get_nkeys(b, &nkeys), MPI_SUCCESS);
    CHECK(nkeys == 3);
    CHECK_RC(MPI_Info_free(&b), MPI_SUCCESS);
}

/* MPI_INFO_ENV can be read and duplicated, never changed or freed; MPI_Info_create_env builds
 * the same kind of object from a command line. */
static void test_env(const char *argv0) {
    char value[MPI_MAX_INFO_VAL], key[MPI_MAX_INFO_KEY];
    int flag, nkeys, n;
    MPI_Info env = MPI_INFO_ENV, copy = MPI_INFO_NULL;

    CHECK_RC(MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys), MPI_SUCCESS);
    CHECK(nkeys >= 4);
    CHECK_RC(MPI_Info_get(MPI_INFO_ENV, "command", sizeof value - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, argv0) == 0);
    CHECK_RC(MPI_Info_get(MPI_INFO_ENV, "maxprocs", sizeof value - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "1") == 0);
    CHECK_RC(MPI_Info_get(MPI_INFO_ENV, "thread_level", sizeof value - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "MPI_THREAD_MULTIPLE") == 0);
    CHECK_RC(MPI_Info_get_nthkey(MPI_INFO_ENV, nkeys - 1, key), MPI_SUCCESS);
    CHECK(strcmp(key, "thread_level") == 0);

    CHECK_RC(MPI_Info_set(MPI_INFO_ENV, "maxprocs", "2"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_delete(MPI_INFO_ENV, "maxprocs"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_free(&env), MPI_ERR_INFO);
    CHECK(env == MPI_INFO_ENV);
    CHECK_RC(MPI_Info_get_nkeys(MPI_INFO_ENV, &n), MPI_SUCCESS);
    CHECK(n == nkeys);

    CHECK_RC(MPI_Info_dup(MPI_INFO_ENV, &copy), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(copy, "maxprocs", "2"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_get(copy, "maxprocs", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "2") == 0);
    CHECK_RC(MPI_Info_get(MPI_INFO_ENV, "maxprocs", sizeof value - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "1") == 0);
    CHECK_RC(MPI_Info_free(&copy), MPI_SUCCESS);

    {
        char prog[] = "solver", a1[] = "-n", a2[] = "64";
        char *args[] = {prog, a1, a2, NULL};
        MPI_Info made = MPI_INFO_NULL;
        CHECK_RC(MPI_Info_create_env(3, args, &made), MPI_SUCCESS);
        CHECK_RC(MPI_Info_get(made, "command", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(value, "solver") == 0);
        CHECK_RC(MPI_Info_get(made, "argv", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(value, "-n 64") == 0);
        CHECK_RC(MPI_Info_set(made, "maxprocs", "4"), MPI_SUCCESS);
        CHECK_RC(MPI_Info_free(&made), MPI_SUCCESS);
        CHECK_RC(MPI_Info_create_env(-1, args, &made), MPI_ERR_ARG);
    }
}

/* MPI_INFO_NULL is no object for any function. */
static void test_null(void) {
    char value[MPI_MAX_INFO_VAL];
    int flag = -1, n = -1, len = 8;
    MPI_Info null = MPI_INFO_NULL, out = MPI_INFO_ENV;
    CHECK_RC(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_delete(MPI_INFO_NULL, "k"), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_get(MPI_INFO_NULL, "k", 8, value, &flag), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_get_valuelen(MPI_INFO_NULL, "k", &len, &flag), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_get_string(MPI_INFO_NULL, "k", &len, value, &flag), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_get_nthkey(MPI_INFO_NULL, 0, value), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_dup(MPI_INFO_NULL, &out), MPI_ERR_INFO);
    CHECK_RC(MPI_Info_free(&null), MPI_ERR_INFO);
    CHECK(flag == -1 && n == -1 && len == 8 && out == MPI_INFO_ENV && null == MPI_INFO_NULL);
}

/* A handle passed through an int (as the ABI's Fortran and tool interfaces do) comes back the
 * same and still works. */
static void test_toint(void) {
    MPI_Info info = MPI_INFO_NULL;
    char value[MPI_MAX_INFO_VAL];
    int flag;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "through", "an int"), MPI_SUCCESS);
    int as_int = MPI_Info_toint(info);
    MPI_Info back = MPI_Info_fromint(as_int);
    CHECK(back == info);
    CHECK_RC(MPI_Info_get(back, "through", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "an int") == 0);
    CHECK(MPI_Info_fromint(MPI_Info_toint(MPI_INFO_NULL)) == MPI_INFO_NULL);
    CHECK(MPI_Info_fromint(MPI_Info_toint(MPI_INFO_ENV)) == MPI_INFO_ENV);
    CHECK(MPI_Info_toint(MPI_INFO_NULL) != MPI_Info_toint(MPI_INFO_ENV));
    CHECK(MPI_Info_toint(info) != MPI_Info_toint(MPI_INFO_NULL));
    CHECK_RC(MPI_Info_free(&back), MPI_SUCCESS);
    CHECK_RC(MPI_Info_get_nkeys(MPI_Info_fromint(as_int), &flag), MPI_ERR_INFO);
}

/* The error functions know every class the info functions return. */
static void test_errors(void) {
    char first[MPI_MAX_ERROR_STRING] = "";
    for (int i = 0; i < N_ERROR_CODES; i++) {
        char message[MPI_MAX_ERROR_STRING];
        int len = -1, cls = -1, code = ERROR_CODES[i].code;
        CHECK_RC(MPI_Error_string(code, message, &len), MPI_SUCCESS);
        CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && (size_t)len == strlen(message));
        CHECK(i == 0 || strcmp(message, first) != 0);
        if (i == 0) strcpy(first, message);
        CHECK_RC(MPI_Error_class(code, &cls), MPI_SUCCESS);
        CHECK(cls == code);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    (void)guarded_end;
    check_start(argv[0]);
    test_constants();
    test_one_object();
    test_dup();
    test_env(argv[0]);
    test_null();
    test_toint();
    test_errors();
    return check_report();
}
