/* pass_back.c - mpi-info linked ahead of a host whose error functions pass every code back to
 * MPI_Error_string / MPI_Error_class (tests-c/host/pass_back_host.c). A code mpi-info does not
 * own goes to the host once, comes back, and is answered MPI_ERR_ARG: no loop (an alarm ends
 * the program if there is one). mpi-info's own codes never reach the host. */
#define _GNU_SOURCE 1
#include "check.h"

int pass_back_host_calls(void);

typedef int (*error_string_fn)(int, char *, int *);
typedef int (*error_class_fn)(int, int *);
static const error_string_fn ERROR_STRING[2] = {MPI_Error_string, PMPI_Error_string};
static const error_class_fn ERROR_CLASS[2] = {MPI_Error_class, PMPI_Error_class};

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    alarm(60);
    static const int unowned[] = {5, 35, 1000, -1};
    int host_calls = 0;
    for (int api = 0; api < 2; api++) {
        for (int i = 0; i < 4; i++) {
            char message[MPI_MAX_ERROR_STRING];
            int length = -1, errorclass = -1;
            fill_sentinel(message, sizeof message);
            CHECK_RC(ERROR_STRING[api](unowned[i], message, &length), MPI_ERR_ARG);
            CHECK_RC(ERROR_CLASS[api](unowned[i], &errorclass), MPI_ERR_ARG);
            CHECK(untouched(message, 0, sizeof message) && length == -1 && errorclass == -1);
            host_calls += 2;
            CHECK(pass_back_host_calls() == host_calls);
        }
        char message[MPI_MAX_ERROR_STRING], want[MPI_MAX_ERROR_STRING];
        int length = -1, want_length = -1, errorclass = -1;
        CHECK_RC(MPIX_Info_error_string(MPI_ERR_INFO, want, &want_length), MPI_SUCCESS);
        CHECK_RC(ERROR_STRING[api](MPI_ERR_INFO, message, &length), MPI_SUCCESS);
        CHECK(strcmp(message, want) == 0 && length == want_length);
        CHECK_RC(ERROR_CLASS[api](MPI_ERR_INFO_KEY, &errorclass), MPI_SUCCESS);
        CHECK(errorclass == MPI_ERR_INFO_KEY);
        CHECK(pass_back_host_calls() == host_calls);
    }
    return check_report();
}
