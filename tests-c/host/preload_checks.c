/* preload_checks.c - a prebuilt program, and a prebuilt extension, linked only against a host MPI
 * library that has no info object (tests-c/host/local_host.c with -DLOCAL_HOST_INFO_STUBS: its
 * info functions end the process), run with mpi-info preloaded in front of it as
 * docs/embedding.md's "The preload route" says (tests-c/local_host_test.sh).
 *
 * Built as a program (preload_app) and, with -DPRELOAD_EXTENSION, as a shared library
 * (libpreload_ext.so) that the test opens from Python with ctypes, whose default is
 * RTLD_LOCAL: the host library under it is then in no scope the preloaded mpi-info can search
 * with RTLD_NEXT, as under mpi4py. In each: the info calls reach mpi-info and work, mpi-info's
 * codes get mpi-info's message and class, and the host's code 1005 gets the host's ("noinfo
 * host: error 1005", class 5). With -DMPI_INFO_TEST_ABI, in the standard ABI's form, for
 * libmpi_info_abi. */
/* Linked to the host only; mpi-info comes in with LD_PRELOAD: no link check (README.md,
 * "Standard ABI"). */
#define MPI_INFO_NO_LINK_CHECK 1
#include "check.h"

/* The extension's entry point: runs the checks, prints "<name>: N passed, M failed". */
int preload_run(const char *name);

int preload_run(const char *name) {
    check_start(name);
    MPI_Info info = MPI_INFO_NULL;
    char value[MPI_MAX_INFO_VAL], message[MPI_MAX_ERROR_STRING];
    int flag = 0, length = -1, errorclass = -1;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "cb_nodes", "4"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "4") == 0);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    CHECK(info == MPI_INFO_NULL);

    int rc = MPI_Info_get(MPI_INFO_NULL, "cb_nodes", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(rc == MPI_ERR_INFO);
    CHECK_RC(MPI_Error_string(rc, message, &length), MPI_SUCCESS);
    CHECK(strncmp(message, "MPI_ERR_INFO:", 13) == 0 && length == (int)strlen(message));
    CHECK_RC(MPI_Error_class(rc, &errorclass), MPI_SUCCESS);
    CHECK(errorclass == MPI_ERR_INFO);

    length = -1;
    errorclass = -1;
    CHECK_RC(MPI_Error_string(1005, message, &length), MPI_SUCCESS);
    CHECK(strcmp(message, "noinfo host: error 1005") == 0 && length == (int)strlen(message));
    CHECK_RC(MPI_Error_class(1005, &errorclass), MPI_SUCCESS);
    CHECK(errorclass == 5);

    rc = check_report();
    fflush(stdout);
    return rc;
}

#if !defined(PRELOAD_EXTENSION)
int main(int argc, char **argv) {
    (void)argc;
    return preload_run(argv[0]);
}
#endif
