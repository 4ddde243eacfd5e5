/* stub_mpi.c - stub-mpi's functions (mpi.h): one process, and mpi-info for everything info.
 *
 * Built as a shared library and as an archive (make test builds both, for each style of
 * mpi.h's constants):
 *
 *   cc -std=c99 -O2 -fPIC -shared -Iexamples/stub-mpi $(pkg-config --cflags mpi-info) \
 *      examples/stub-mpi/stub_mpi.c -o libstub_mpi.so $(pkg-config --libs mpi-info)
 *   cc -std=c99 -O2 -c -Iexamples/stub-mpi $(pkg-config --cflags mpi-info) \
 *      examples/stub-mpi/stub_mpi.c -o stub_mpi.o && ar rcs libstub_mpi.a stub_mpi.o
 *
 * Everything is in this one file, so one object: a program that uses any of this layer's
 * functions gets its error functions too, whichever archive comes first on the link line (a
 * host's error functions in an object of their own could be left in the archive, and then the
 * weak ones of libmpi_info.a, which know none of the host's codes, would answer). The same
 * holds for the Fortran binding at the end (mpif.h). */
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

/* Set by MPI_Init and MPI_Finalize, which one thread calls, before and after every other
 * thread's MPI calls. */
static int initialized, finalized;

static int active(void) { return initialized && !finalized; }

static int valid_comm(MPI_Comm comm) { return comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF; }

static int valid_type(MPI_Datatype datatype) {
    return datatype == MPI_BYTE || datatype == MPI_CHAR || datatype == MPI_INT || datatype == MPI_DOUBLE;
}

int MPI_Init(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    if (initialized) return MPI_ERR_OTHER;
    initialized = 1;
    return MPI_SUCCESS;
}

/* Any thread may call anything: between MPI_Init and MPI_Finalize this layer's state is only
 * read, and mpi-info is MPI_THREAD_MULTIPLE. */
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    (void)required;
    if (!provided) return MPI_ERR_ARG;
    int rc = MPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) *provided = MPI_THREAD_MULTIPLE;
    return rc;
}

int MPI_Initialized(int *flag) {
    if (!flag) return MPI_ERR_ARG;
    *flag = initialized;
    return MPI_SUCCESS;
}

int MPI_Finalize(void) {
    if (!active()) return MPI_ERR_OTHER;
    finalized = 1;
    return MPI_SUCCESS;
}

int MPI_Finalized(int *flag) {
    if (!flag) return MPI_ERR_ARG;
    *flag = finalized;
    return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
    (void)comm;
    exit(errorcode);
}

int MPI_Comm_rank(MPI_Comm comm, int *rank) {
    if (!active()) return MPI_ERR_OTHER;
    if (!valid_comm(comm)) return MPI_ERR_COMM;
    if (!rank) return MPI_ERR_ARG;
    *rank = 0;
    return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size) {
    if (!active()) return MPI_ERR_OTHER;
    if (!valid_comm(comm)) return MPI_ERR_COMM;
    if (!size) return MPI_ERR_ARG;
    *size = 1;
    return MPI_SUCCESS;
}

/* A broadcast copies the root's buffer into every other process's. The only process is the
 * root, so its buffer is every process's buffer already: once the arguments are checked, there
 * is nothing to copy. */
int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
    if (!active()) return MPI_ERR_OTHER;
    if (!valid_comm(comm)) return MPI_ERR_COMM;
    if (count < 0) return MPI_ERR_COUNT;
    if (!valid_type(datatype)) return MPI_ERR_TYPE;
    if (root != 0) return MPI_ERR_ROOT;
    if (!buffer && count > 0) return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

/* The messages of this layer's own codes; NULL for the others. Each starts with its class's
 * name, as mpi-info's do. */
static const char *own_message(int errorcode) {
    switch (errorcode) {
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER: invalid buffer pointer";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT: invalid count argument";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE: invalid datatype";
    case MPI_ERR_COMM: return "MPI_ERR_COMM: invalid communicator";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT: invalid root (the only process is rank 0)";
    case MPI_ERR_IO: return "MPI_ERR_IO: input/output error";
    default: return NULL;
    }
}

/* Every code this layer does not own goes to mpi-info, which answers for its own (the nine
 * it returns, MPI_SUCCESS and MPI_ERR_ARG among them) and says MPI_ERR_ARG for the rest. The
 * PMPIX_ names, as a layer calls its parts: a tool that wraps MPIX_Info_error_string sees
 * the program's calls only. */
static int error_string(int errorcode, char *string, int *resultlen) {
    const char *message = own_message(errorcode);
    if (!message) return PMPIX_Info_error_string(errorcode, string, resultlen);
    if (!string || !resultlen) return MPI_ERR_ARG;
    size_t length = strlen(message);
    memcpy(string, message, length + 1);
    *resultlen = (int)length;
    return MPI_SUCCESS;
}

static int error_class(int errorcode, int *errorclass) {
    if (!own_message(errorcode)) return PMPIX_Info_error_class(errorcode, errorclass);
    if (!errorclass) return MPI_ERR_ARG;
    *errorclass = errorcode;
    return MPI_SUCCESS;
}

int MPI_Error_string(int errorcode, char *string, int *resultlen) { return error_string(errorcode, string, resultlen); }
int PMPI_Error_string(int errorcode, char *string, int *resultlen) { return error_string(errorcode, string, resultlen); }
int MPI_Error_class(int errorcode, int *errorclass) { return error_class(errorcode, errorclass); }
int PMPI_Error_class(int errorcode, int *errorclass) { return error_class(errorcode, errorclass); }

/* The Fortran binding, for programs that include mpif.h: the routines under the linker names
 * gfortran and flang give them on Linux (lower case, one trailing underscore; every argument by
 * reference, then one size_t per CHARACTER argument, its declared length). MPI_INFO_ routines
 * are mpi-info's (libmpi_info). MPI_ERROR_STRING and MPI_ERROR_CLASS, with their PMPI_ twins,
 * are the C functions' error_string and error_class, so they too answer for this layer's codes
 * and pass every other code to mpi-info; a string is blank-padded to its declared length and
 * nothing is written on error. */
void mpi_init_(MPI_Fint *ierror) { *ierror = MPI_Init(NULL, NULL); }
void mpi_finalize_(MPI_Fint *ierror) { *ierror = MPI_Finalize(); }

void mpi_comm_rank_(const MPI_Fint *comm, MPI_Fint *rank, MPI_Fint *ierror) { *ierror = MPI_Comm_rank(*comm, rank); }
void mpi_comm_size_(const MPI_Fint *comm, MPI_Fint *size, MPI_Fint *ierror) { *ierror = MPI_Comm_size(*comm, size); }

void mpi_bcast_(void *buffer, const MPI_Fint *count, const MPI_Fint *datatype, const MPI_Fint *root,
                const MPI_Fint *comm, MPI_Fint *ierror) {
    *ierror = MPI_Bcast(buffer, *count, *datatype, *root, *comm);
}

static void error_string_f(const MPI_Fint *errorcode, char *string, MPI_Fint *resultlen, MPI_Fint *ierror,
                           size_t string_len) {
    char message[MPI_MAX_ERROR_STRING];
    int length = 0;
    int rc = error_string(*errorcode, message, &length);
    if (rc == MPI_SUCCESS) {
        size_t n = (size_t)length < string_len ? (size_t)length : string_len;
        memcpy(string, message, n);
        memset(string + n, ' ', string_len - n);
        *resultlen = (MPI_Fint)n;
    }
    *ierror = rc;
}

void mpi_error_string_(const MPI_Fint *errorcode, char *string, MPI_Fint *resultlen, MPI_Fint *ierror, size_t string_len) {
    error_string_f(errorcode, string, resultlen, ierror, string_len);
}
void pmpi_error_string_(const MPI_Fint *errorcode, char *string, MPI_Fint *resultlen, MPI_Fint *ierror, size_t string_len) {
    error_string_f(errorcode, string, resultlen, ierror, string_len);
}
void mpi_error_class_(const MPI_Fint *errorcode, MPI_Fint *errorclass, MPI_Fint *ierror) {
    *ierror = error_class(*errorcode, errorclass);
}
void pmpi_error_class_(const MPI_Fint *errorcode, MPI_Fint *errorclass, MPI_Fint *ierror) {
    *ierror = error_class(*errorcode, errorclass);
}
