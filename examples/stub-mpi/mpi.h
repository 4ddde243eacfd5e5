/* mpi.h - stub-mpi: a single-process MPI layer whose info object is mpi-info's.
 *
 * The kind of MPI a scientific code ships for its serial builds, or the start of a new MPI
 * implementation: one process, rank 0 of 1, a broadcast that has no one to send to, and error
 * functions for its own codes. It has no info object of its own: mpi_info.h, included below,
 * gives it MPI_Info, MPI_INFO_NULL, MPI_INFO_ENV and the MPI_Info_ functions
 * (docs/embedding.md describes what a host provides and how it links).
 *
 * The names every mpi.h shares with mpi_info.h (MPI_SUCCESS, the error classes,
 * MPI_MAX_ERROR_STRING, MPI_THREAD_MULTIPLE, MPI_Fint) are this header's, with the MPI-5.0
 * standard ABI's numbers. They are enum constants, as in the standard ABI's mpi.h, or macros,
 * as in older mpi.h files, when STUB_MPI_MACRO_CONSTANTS is defined: mpi_info.h composes with
 * both. */
#ifndef STUB_MPI_H
#define STUB_MPI_H

#define MPI_VERSION 5
#define MPI_SUBVERSION 0

/* The info part, at the top: with MPI_VERSION 2 or later defined, mpi_info.h defines none of
 * the shared names below, so it may come before them. */
#include <mpi_info.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int MPI_Fint;

/* The shared names: every MPI-2 or later mpi.h has all of them, the error classes that
 * mpi-info returns included (it leaves them all to this header). MPI_ERR_BUFFER, _COUNT,
 * _TYPE, _COMM and _ROOT are this layer's own classes, MPI_ERR_IO that of an I/O layer above
 * it. */
#ifdef STUB_MPI_MACRO_CONSTANTS
#define MPI_SUCCESS          0
#define MPI_ERR_BUFFER       1
#define MPI_ERR_COUNT        2
#define MPI_ERR_TYPE         3
#define MPI_ERR_COMM         5
#define MPI_ERR_ROOT         8
#define MPI_ERR_ARG          13
#define MPI_ERR_OTHER        16
#define MPI_ERR_INTERN       17
#define MPI_ERR_INFO_KEY     31
#define MPI_ERR_INFO_NOKEY   32
#define MPI_ERR_INFO_VALUE   33
#define MPI_ERR_INFO         34
#define MPI_ERR_IO           35
#define MPI_ERR_NO_MEM       39
#define MPI_MAX_ERROR_STRING 512
#define MPI_THREAD_SINGLE    0
#define MPI_THREAD_MULTIPLE  4096
#else
enum {
    MPI_SUCCESS = 0,
    MPI_ERR_BUFFER = 1,
    MPI_ERR_COUNT = 2,
    MPI_ERR_TYPE = 3,
    MPI_ERR_COMM = 5,
    MPI_ERR_ROOT = 8,
    MPI_ERR_ARG = 13,
    MPI_ERR_OTHER = 16,
    MPI_ERR_INTERN = 17,
    MPI_ERR_INFO_KEY = 31,
    MPI_ERR_INFO_NOKEY = 32,
    MPI_ERR_INFO_VALUE = 33,
    MPI_ERR_INFO = 34,
    MPI_ERR_IO = 35,
    MPI_ERR_NO_MEM = 39
};
enum { MPI_MAX_ERROR_STRING = 512 };
enum { MPI_THREAD_SINGLE = 0, MPI_THREAD_MULTIPLE = 4096 };
#endif

/* Its own names. Handles are plain ints: a stub has no object behind them. */
typedef int MPI_Comm;
#define MPI_COMM_NULL  0
#define MPI_COMM_WORLD 1
#define MPI_COMM_SELF  2

typedef int MPI_Datatype;
#define MPI_DATATYPE_NULL 0
#define MPI_BYTE          1
#define MPI_CHAR          2
#define MPI_INT           3
#define MPI_DOUBLE        4

/* Every function but MPI_Initialized, MPI_Finalized, MPI_Abort and the error functions
 * returns MPI_ERR_OTHER before MPI_Init or after MPI_Finalize. */
int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Initialized(int *flag);
int MPI_Finalize(void);
int MPI_Finalized(int *flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);

/* The error functions of an MPI layer with mpi-info inside: they answer for this layer's own
 * codes and pass every other code to MPIX_Info_error_string / MPIX_Info_error_class. */
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int PMPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Error_class(int errorcode, int *errorclass);
int PMPI_Error_class(int errorcode, int *errorclass);

#ifdef __cplusplus
}
#endif

#endif /* STUB_MPI_H */
