/* pass_back_host.c - a host MPI layer whose error functions pass every code back to
 * MPI_Error_string and MPI_Error_class by those names, instead of to MPIX_Info_error_string and
 * MPIX_Info_error_class (docs/embedding.md). Linked after libmpi_info.so, it is where mpi-info
 * passes the codes it does not own, and its calls land in mpi-info's functions again:
 * tests-c/host/pass_back.c checks that every call still ends. */
#include "mpi_info.h"

static int calls;

/* How many calls this thread made to this layer's error functions. */
int pass_back_host_calls(void);
int pass_back_host_calls(void) { return calls; }

int PMPI_Error_string(int errorcode, char *string, int *resultlen) {
    calls++;
    return MPI_Error_string(errorcode, string, resultlen);
}

int MPI_Error_string(int errorcode, char *string, int *resultlen) { return PMPI_Error_string(errorcode, string, resultlen); }

int PMPI_Error_class(int errorcode, int *errorclass) {
    calls++;
    return MPI_Error_class(errorcode, errorclass);
}

int MPI_Error_class(int errorcode, int *errorclass) { return PMPI_Error_class(errorcode, errorclass); }
