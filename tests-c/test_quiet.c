/* test_quiet.c - the library never prints: not on success, not on any error class.
 *
 * With the process's standard output and standard error sent to a temporary file, the program
 * makes calls of every kind (every function with good arguments, then with every kind of bad
 * one: dead, forged and predefined handles, NULL and over-long strings, NULL outputs, negative
 * counts, unknown error codes, malformed MPIX_ text and bytes, a missing file), then puts the
 * two streams back and checks that the file is empty. The checks of the calls' results are
 * made after that, so that nothing of the test itself is written while the streams are
 * redirected. */
#include "support.h"

#include <fcntl.h>

/* Results of the calls made while the streams are redirected, checked afterwards. */
static int results[128];
static int nresults;

static void record(int rc) {
    if (nresults < (int)(sizeof results / sizeof results[0])) results[nresults++] = rc;
}

static void calls(void) {
    MPI_Info info = MPI_INFO_NULL, copy = MPI_INFO_NULL, dead = MPI_INFO_NULL;
    char value[MPI_MAX_INFO_VAL], key[MPI_MAX_INFO_KEY], text[MPI_MAX_ERROR_STRING];
    int flag, len, n, cls, buflen;
    char *long_key = repeat('k', MPI_MAX_INFO_KEY), *long_value = repeat('v', MPI_MAX_INFO_VAL);
    char prog[] = "prog", arg[] = "-x";
    char *argv[] = {prog, arg, NULL};

    /* Good calls, MPI_INFO_ENV among them. */
    record(MPI_Info_create(&info));
    record(MPI_Info_set(info, "key", "value"));
    record(MPI_Info_get(info, "key", 2, value, &flag));
    record(MPI_Info_get_valuelen(info, "key", &len, &flag));
    buflen = 0;
    record(MPI_Info_get_string(info, "key", &buflen, NULL, &flag));
    record(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    record(MPI_Info_get_nthkey(info, 0, key));
    record(MPI_Info_dup(MPI_INFO_ENV, &copy));
    record(MPI_Info_create_env(2, argv, &dead));
    record(MPI_Info_free(&dead)); /* dead is now a freed handle's value */
    dead = copy;
    record(MPI_Info_free(&copy));
    record(MPI_Error_string(MPI_ERR_INFO, text, &len));
    record(MPI_Error_class(MPI_ERR_ARG, &cls));

    /* Every kind of bad argument. */
    record(MPI_Info_set(dead, "key", "value"));
    record(MPI_Info_set(MPI_INFO_NULL, "key", "value"));
    record(MPI_Info_set(MPI_INFO_ENV, "key", "value"));
    record(MPI_Info_set(MPI_Info_fromint(-1), "key", "value"));
    record(MPI_Info_set(info, NULL, "value"));
    record(MPI_Info_set(info, "", "value"));
    record(MPI_Info_set(info, long_key, "value"));
    record(MPI_Info_set(info, "key", long_value));
    record(MPI_Info_set(info, "key", NULL));
    record(MPI_Info_get(info, "key", -1, value, &flag));
    record(MPI_Info_get(info, "key", 10, NULL, &flag));
    record(MPI_Info_get_nthkey(info, 5, key));
    record(MPI_Info_delete(info, "missing"));
    record(MPI_Info_free(NULL));
    record(MPI_Info_create(NULL));
    record(MPI_Info_create_env(-1, argv, &copy));
    record(MPI_Error_string(12345, text, &len));
    record(MPI_Error_class(-7, &cls));
    record(MPIX_Info_set_from_string(info, "key value extra", MPIX_INFO_FORMAT_LINES, 1));
    record(MPIX_Info_set_from_file(info, "/nonexistent/mpi-info/hints", MPIX_INFO_FORMAT_LINES, 1));
    record(MPIX_Info_get_int(info, "key", &n, &flag));
    record(MPIX_Info_deserialize("garbage", 7, &copy));
    record(MPI_Info_free(&info));
    free(long_key);
    free(long_value);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    char path[] = "/tmp/mpi_info_quiet_XXXXXX";
    int out = mkstemp(path);
    int saved_stdout = dup(1), saved_stderr = dup(2);
    if (out < 0 || saved_stdout < 0 || saved_stderr < 0) return 2;
    fflush(stdout);
    fflush(stderr);
    if (dup2(out, 1) < 0 || dup2(out, 2) < 0) return 2;

    calls();

    fflush(stdout);
    fflush(stderr);
    if (dup2(saved_stdout, 1) < 0 || dup2(saved_stderr, 2) < 0) return 2;
    off_t written = lseek(out, 0, SEEK_END);
    close(out);
    unlink(path);

    CHECK(written == 0);
    if (written != 0) fprintf(stderr, "the library wrote %ld bytes to stdout or stderr\n", (long)written);
    /* The calls did what they should, so the quiet was not that of calls that did nothing. */
    const int expected[] = {
        MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS,
        MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS, MPI_SUCCESS,
        MPI_ERR_INFO, MPI_ERR_INFO, MPI_ERR_INFO, MPI_ERR_INFO, MPI_ERR_INFO_KEY, MPI_ERR_INFO_KEY,
        MPI_ERR_INFO_KEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO_VALUE, MPI_ERR_ARG, MPI_ERR_ARG,
        MPI_ERR_ARG, MPI_ERR_INFO_NOKEY, MPI_ERR_ARG, MPI_ERR_ARG, MPI_ERR_ARG, MPI_ERR_ARG,
        MPI_ERR_ARG, MPI_ERR_INFO_VALUE, MPI_ERR_OTHER, MPI_ERR_INFO_VALUE, MPI_ERR_ARG, MPI_SUCCESS,
    };
    CHECK(nresults == (int)(sizeof expected / sizeof expected[0]));
    for (int i = 0; i < nresults && i < (int)(sizeof expected / sizeof expected[0]); i++) {
        CHECK_RC(results[i], expected[i]);
    }
    return check_report();
}
