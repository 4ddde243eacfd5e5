/* app.c - a program on a host MPI layer with mpi-info inside it: examples/stub-mpi's mpi.h and
 * library, and libmpi_info (docs/embedding.md).
 *
 * The Makefile builds it in every combination: mpi.h's shared names as enum constants or as
 * macros (STUB_MPI_MACRO_CONSTANTS), the two libraries shared or static, the host's first on
 * the link line or mpi-info's; tests-c/host_test.sh runs them. In each, whichever error
 * function the program reaches (MPI_ or PMPI_), the host's codes get the host's message and
 * class, mpi-info's codes get mpi-info's, and a code nobody owns is MPI_ERR_ARG, answered
 * without a loop between the two layers (an alarm ends the program if one loops). */
#define _GNU_SOURCE 1
#include <limits.h>
#include <mpi.h>

#include "check.h"

/* The header chose the style asked for, and mpi_info.h left the shared names to it. */
#if defined(STUB_MPI_MACRO_CONSTANTS) != defined(MPI_ERR_COMM)
#error "mpi.h's constants are not in the style asked for"
#endif
#if !defined(STUB_MPI_MACRO_CONSTANTS) && (defined(MPI_SUCCESS) || defined(MPI_ERR_INFO) || defined(MPI_THREAD_MULTIPLE))
#error "mpi_info.h defined a name over the host's enum constant"
#endif

typedef int (*error_string_fn)(int, char *, int *);
typedef int (*error_class_fn)(int, int *);
static const error_string_fn ERROR_STRING[2] = {MPI_Error_string, PMPI_Error_string};
static const error_class_fn ERROR_CLASS[2] = {MPI_Error_class, PMPI_Error_class};

/* The host's codes and the messages the host gives them. */
static const struct {
    int code;
    const char *message;
} HOST_CODES[] = {
    {MPI_ERR_BUFFER, "MPI_ERR_BUFFER: invalid buffer pointer"},
    {MPI_ERR_COUNT, "MPI_ERR_COUNT: invalid count argument"},
    {MPI_ERR_TYPE, "MPI_ERR_TYPE: invalid datatype"},
    {MPI_ERR_COMM, "MPI_ERR_COMM: invalid communicator"},
    {MPI_ERR_ROOT, "MPI_ERR_ROOT: invalid root (the only process is rank 0)"},
    {MPI_ERR_IO, "MPI_ERR_IO: input/output error"},
};
#define N_HOST_CODES (int)(sizeof HOST_CODES / sizeof HOST_CODES[0])

/* Codes neither layer owns. */
static const int UNOWNED_CODES[] = {-1, 4, 14, 36, 40, 1000, INT_MAX, INT_MIN};
#define N_UNOWNED_CODES (int)(sizeof UNOWNED_CODES / sizeof UNOWNED_CODES[0])

/* 1 if the code's message through `api` is exactly `want`, with its length. */
static int message_is(int api, int code, const char *want) {
    char message[MPI_MAX_ERROR_STRING];
    int length = -1;
    fill_sentinel(message, sizeof message);
    if (ERROR_STRING[api](code, message, &length) != MPI_SUCCESS) return 0;
    if (strcmp(message, want) != 0 || length != (int)strlen(want)) {
        fprintf(stderr, "  code %d through %s: \"%.80s\" (length %d)\n", code, api ? "PMPI_" : "MPI_", message, length);
        return 0;
    }
    return 1;
}

/* 1 if PMPIX_Info_error_string gives the code exactly `want`. */
static int message_is_mpix(int code, const char *want) {
    char message[MPI_MAX_ERROR_STRING];
    int length = -1;
    return PMPIX_Info_error_string(code, message, &length) == MPI_SUCCESS && strcmp(message, want) == 0 &&
           length == (int)strlen(want);
}

static int class_of(int api, int code) {
    int errorclass = -1;
    if (ERROR_CLASS[api](code, &errorclass) != MPI_SUCCESS) return -1;
    return errorclass;
}

/* The info part needs no MPI_Init: it works before and after the host's MPI. */
static void info_outside_mpi(void) {
    MPI_Info info;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "striping_unit", "1048576"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

/* The host's calls, and the codes they return. */
static void host_calls(void) {
    int flag = -1, rank = -1, size = -1, value = 42;
    info_outside_mpi();
    CHECK_RC(MPI_Initialized(&flag), MPI_SUCCESS);
    CHECK(flag == 0);
    CHECK_RC(MPI_Comm_rank(MPI_COMM_WORLD, &rank), MPI_ERR_OTHER);
    CHECK_RC(MPI_Init(NULL, NULL), MPI_SUCCESS);
    CHECK_RC(MPI_Initialized(&flag), MPI_SUCCESS);
    CHECK(flag == 1);
    CHECK_RC(MPI_Init(NULL, NULL), MPI_ERR_OTHER);
    CHECK_RC(MPI_Comm_rank(MPI_COMM_WORLD, &rank), MPI_SUCCESS);
    CHECK_RC(MPI_Comm_size(MPI_COMM_WORLD, &size), MPI_SUCCESS);
    CHECK(rank == 0 && size == 1);
    CHECK_RC(MPI_Comm_size(MPI_COMM_SELF, &size), MPI_SUCCESS);
    CHECK_RC(MPI_Comm_rank(MPI_COMM_NULL, &rank), MPI_ERR_COMM);
    CHECK_RC(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_RC(MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK(value == 42);
    CHECK_RC(MPI_Bcast(NULL, 0, MPI_BYTE, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_RC(MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_RC(MPI_Bcast(&value, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_RC(MPI_Bcast(&value, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_RC(MPI_Bcast(&value, 1, MPI_INT, 1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    CHECK_RC(MPI_Bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
}

static void host_codes(void) {
    for (int api = 0; api < 2; api++)
        for (int i = 0; i < N_HOST_CODES; i++) {
            CHECK(message_is(api, HOST_CODES[i].code, HOST_CODES[i].message));
            CHECK(class_of(api, HOST_CODES[i].code) == HOST_CODES[i].code);
        }
    /* mpi-info's own functions never pass a code on. */
    for (int i = 0; i < N_HOST_CODES; i++) {
        char message[MPI_MAX_ERROR_STRING];
        int length = -1, errorclass = -1;
        fill_sentinel(message, sizeof message);
        CHECK_RC(MPIX_Info_error_string(HOST_CODES[i].code, message, &length), MPI_ERR_ARG);
        CHECK_RC(PMPIX_Info_error_string(HOST_CODES[i].code, message, &length), MPI_ERR_ARG);
        CHECK_RC(MPIX_Info_error_class(HOST_CODES[i].code, &errorclass), MPI_ERR_ARG);
        CHECK_RC(PMPIX_Info_error_class(HOST_CODES[i].code, &errorclass), MPI_ERR_ARG);
        CHECK(untouched(message, 0, sizeof message) && length == -1 && errorclass == -1);
    }
}

/* Through every error function, each of mpi-info's codes (tests-c/check.h's table) gets
 * mpi-info's message (non-empty, starting with its class's name) and is its own class; the host's
 * mpi.h gives each the standard's number. */
static void library_codes(void) {
    for (int i = 0; i < N_ERROR_CODES; i++) {
        int code = ERROR_CODES[i].code, length = -1, errorclass = -1;
        CHECK(code == ERROR_CODES[i].number);
        char message[MPI_MAX_ERROR_STRING];
        CHECK_RC(MPIX_Info_error_string(code, message, &length), MPI_SUCCESS);
        size_t name = strlen(ERROR_CODES[i].name);
        CHECK(length > (int)name && strncmp(message, ERROR_CODES[i].name, name) == 0 && message[name] == ':');
        for (int api = 0; api < 2; api++) {
            CHECK(message_is(api, code, message));
            CHECK(class_of(api, code) == code);
        }
        CHECK_RC(MPIX_Info_error_class(code, &errorclass), MPI_SUCCESS);
        CHECK(errorclass == code);
        errorclass = -1;
        CHECK_RC(PMPIX_Info_error_class(code, &errorclass), MPI_SUCCESS);
        CHECK(errorclass == code);
        CHECK(message_is_mpix(code, message));
    }
}

static void unowned_codes(void) {
    for (int api = 0; api < 2; api++)
        for (int i = 0; i < N_UNOWNED_CODES; i++) {
            char message[MPI_MAX_ERROR_STRING];
            int length = -1, errorclass = -1;
            fill_sentinel(message, sizeof message);
            CHECK_RC(ERROR_STRING[api](UNOWNED_CODES[i], message, &length), MPI_ERR_ARG);
            CHECK_RC(ERROR_CLASS[api](UNOWNED_CODES[i], &errorclass), MPI_ERR_ARG);
            CHECK(untouched(message, 0, sizeof message) && length == -1 && errorclass == -1);
        }
    /* A NULL output is MPI_ERR_ARG for every kind of code. */
    int length;
    char message[MPI_MAX_ERROR_STRING];
    for (int api = 0; api < 2; api++) {
        CHECK_RC(ERROR_STRING[api](MPI_ERR_COMM, NULL, &length), MPI_ERR_ARG);
        CHECK_RC(ERROR_STRING[api](MPI_ERR_INFO, message, NULL), MPI_ERR_ARG);
        CHECK_RC(ERROR_CLASS[api](MPI_ERR_COMM, NULL), MPI_ERR_ARG);
        CHECK_RC(ERROR_CLASS[api](MPI_ERR_INFO, NULL), MPI_ERR_ARG);
    }
    CHECK_RC(MPIX_Info_error_string(MPI_ERR_INFO, NULL, &length), MPI_ERR_ARG);
    CHECK_RC(MPIX_Info_error_string(MPI_ERR_INFO, message, NULL), MPI_ERR_ARG);
    CHECK_RC(MPIX_Info_error_class(MPI_ERR_INFO, NULL), MPI_ERR_ARG);
}

/* The info part works, and its codes reach the program through the host's error functions. */
static void info_calls(void) {
    MPI_Info info, copy;
    char value[MPI_MAX_INFO_VAL];
    int flag = 0, nkeys = -1;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "cb_nodes", "4"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_dup(info, &copy), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(info, "cb_nodes", "8"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_get(copy, "cb_nodes", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "4") == 0);
    CHECK_RC(MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "8") == 0);
    CHECK_RC(MPI_Info_get_nkeys(copy, &nkeys), MPI_SUCCESS);
    CHECK(nkeys == 1);
    CHECK_RC(MPI_Info_free(&copy), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    CHECK(info == MPI_INFO_NULL && copy == MPI_INFO_NULL);
    int rc = MPI_Info_get(MPI_INFO_NULL, "cb_nodes", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(rc == MPI_ERR_INFO);
    CHECK(class_of(0, rc) == MPI_ERR_INFO);
    char message[MPI_MAX_ERROR_STRING];
    int length;
    CHECK_RC(MPI_Error_string(rc, message, &length), MPI_SUCCESS);
    CHECK(strncmp(message, "MPI_ERR_INFO:", 13) == 0);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    alarm(60);
    host_calls();
    host_codes();
    library_codes();
    unowned_codes();
    info_calls();
    int flag = -1;
    CHECK_RC(MPI_Finalize(), MPI_SUCCESS);
    CHECK_RC(MPI_Finalized(&flag), MPI_SUCCESS);
    CHECK(flag == 1);
    /* After MPI_Finalize the host's calls fail with a class it leaves to mpi-info. */
    int rc = MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(rc == MPI_ERR_OTHER && class_of(0, rc) == MPI_ERR_OTHER);
    info_outside_mpi();
    return check_report();
}
