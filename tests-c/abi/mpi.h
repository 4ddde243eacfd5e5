/* mpi.h - the part of an MPI-5.0 standard ABI mpi.h that a program using the info chapter needs,
 * written for the tests from the values the standard's ABI publishes (not from this project's
 * generated include/mpi_info_abi.h), so that tests-c/abi_program.c shows that a program compiled
 * against another standard ABI header runs with libmpi_info_abi.
 *
 * As in the standard's header: every handle type is a pointer to an incomplete struct of its
 * own, and the predefined handles are those pointer types cast from fixed small integers (every
 * value below 0x1000 is reserved for them); the error classes and thread levels are enumeration
 * constants; the string sizes count the terminating NUL. Only the names used with info objects,
 * and some predefined handles of the other kinds, are declared here. */
#ifndef TESTS_ABI_MPI_H
#define TESTS_ABI_MPI_H

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 5
#define MPI_SUBVERSION 0

#define MPI_ABI_VERSION 1
#define MPI_ABI_SUBVERSION 0

/* ---- handle types and their predefined handles ---- */

typedef struct MPI_ABI_Op *MPI_Op;
#define MPI_OP_NULL ((MPI_Op)0x020)

typedef struct MPI_ABI_Comm *MPI_Comm;
#define MPI_COMM_NULL ((MPI_Comm)0x100)
#define MPI_COMM_WORLD ((MPI_Comm)0x101)
#define MPI_COMM_SELF ((MPI_Comm)0x102)

typedef struct MPI_ABI_Group *MPI_Group;
#define MPI_GROUP_NULL ((MPI_Group)0x108)

typedef struct MPI_ABI_Win *MPI_Win;
#define MPI_WIN_NULL ((MPI_Win)0x110)

typedef struct MPI_ABI_File *MPI_File;
#define MPI_FILE_NULL ((MPI_File)0x118)

typedef struct MPI_ABI_Session *MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0x120)

typedef struct MPI_ABI_Message *MPI_Message;
#define MPI_MESSAGE_NULL ((MPI_Message)0x128)

typedef struct MPI_ABI_Info *MPI_Info;
#define MPI_INFO_NULL ((MPI_Info)0x130)
#define MPI_INFO_ENV ((MPI_Info)0x131)

typedef struct MPI_ABI_Errhandler *MPI_Errhandler;
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0x140)

typedef struct MPI_ABI_Request *MPI_Request;
#define MPI_REQUEST_NULL ((MPI_Request)0x180)

typedef struct MPI_ABI_Datatype *MPI_Datatype;
#define MPI_DATATYPE_NULL ((MPI_Datatype)0x200)

/* ---- error classes (those the info functions and the error functions return) ---- */

enum {
    MPI_SUCCESS = 0,
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

/* ---- thread levels ---- */

enum {
    MPI_THREAD_SINGLE = 0,
    MPI_THREAD_FUNNELED = 1024,
    MPI_THREAD_SERIALIZED = 2048,
    MPI_THREAD_MULTIPLE = 4096
};

/* ---- string sizes, the NUL included ---- */

#define MPI_MAX_INFO_KEY 256
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_ERROR_STRING 512

/* ---- the info chapter ---- */

int MPI_Info_create(MPI_Info *info);
int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_free(MPI_Info *info);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);

/* Handle conversion, for code that passes handles through an int (the ABI's Fortran and tool
 * interfaces) */
int MPI_Info_toint(MPI_Info info);
MPI_Info MPI_Info_fromint(int info);

/* ---- error handling ---- */

int MPI_Error_class(int errorcode, int *errorclass);
int MPI_Error_string(int errorcode, char *string, int *resultlen);

#ifdef __cplusplus
}
#endif

#endif
