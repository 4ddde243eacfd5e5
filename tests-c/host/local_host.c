/* local_host.c - a host MPI library with no info object, for the tests of hosts that mpi-info
 * cannot reach with RTLD_NEXT (tests-c/local_host_test.sh): opened with dlopen(RTLD_LOCAL), as
 * Python opens an extension and the MPI library under it, or under a preloaded mpi-info.
 *
 * Its error functions answer for its own two codes, 5 and 1005, both of class 5, with the
 * message "<LOCAL_HOST_NAME>: error <code>", and are MPI_ERR_ARG with nothing written for every
 * other code: like the MPI Forum's mpi-abi-stubs, it knows nothing of mpi-info and is not linked
 * to it. The Makefile builds it in variants:
 *   (none)                  the MPI_ and PMPI_ names;
 *   -DLOCAL_HOST_PLAIN      the MPI_ names only, as a host without a profiling interface;
 *   -DLOCAL_HOST_COPY       also MPIX_Info_error_string, which every copy of mpi-info defines:
 *                           mpi-info must not take this library's answers for a host's;
 *   -DLOCAL_HOST_INFO_STUBS also the info functions the preload test calls, each ending the
 *                           process, as a stub MPI's do (with -DMPI_INFO_TEST_ABI, in the
 *                           standard ABI's form). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Never linked to mpi-info, which the process loads on its own: no link check (README.md,
 * "Standard ABI"). */
#define MPI_INFO_NO_LINK_CHECK 1
#if defined(MPI_INFO_TEST_ABI)
#include "mpi_info_abi.h"
#else
#include "mpi_info.h"
#endif

#ifndef LOCAL_HOST_NAME
#define LOCAL_HOST_NAME "local host"
#endif

static int owned(int errorcode) { return errorcode == 5 || errorcode == 1005; }

static int error_string(int errorcode, char *string, int *resultlen) {
    if (!owned(errorcode) || !string || !resultlen) return MPI_ERR_ARG;
    *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s: error %d", LOCAL_HOST_NAME, errorcode);
    return MPI_SUCCESS;
}

static int error_class(int errorcode, int *errorclass) {
    if (!owned(errorcode) || !errorclass) return MPI_ERR_ARG;
    *errorclass = 5;
    return MPI_SUCCESS;
}

int MPI_Error_string(int errorcode, char *string, int *resultlen) { return error_string(errorcode, string, resultlen); }
int MPI_Error_class(int errorcode, int *errorclass) { return error_class(errorcode, errorclass); }

#if !defined(LOCAL_HOST_PLAIN)
int PMPI_Error_string(int errorcode, char *string, int *resultlen) { return error_string(errorcode, string, resultlen); }
int PMPI_Error_class(int errorcode, int *errorclass) { return error_class(errorcode, errorclass); }
#endif

#if defined(LOCAL_HOST_COPY)
int MPIX_Info_error_string(int errorcode, char *string, int *resultlen) {
    (void)errorcode, (void)string, (void)resultlen;
    return MPI_ERR_ARG;
}
#endif

#if defined(LOCAL_HOST_INFO_STUBS)
int MPI_Info_create(MPI_Info *info) {
    (void)info;
    abort();
}
int MPI_Info_set(MPI_Info info, const char *key, const char *value) {
    (void)info, (void)key, (void)value;
    abort();
}
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag) {
    (void)info, (void)key, (void)valuelen, (void)value, (void)flag;
    abort();
}
int MPI_Info_free(MPI_Info *info) {
    (void)info;
    abort();
}
#endif
