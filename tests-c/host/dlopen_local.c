/* dlopen_local.c - mpi-info's error functions beside host libraries opened with
 * dlopen(RTLD_LOCAL), where dlsym(RTLD_NEXT) cannot see them (docs/embedding.md, "Hosts in
 * private"): what Python does with an extension and the MPI library under it.
 *
 * Both builds, INT_LIBRARY (libmpi_info.so) and ABI_LIBRARY (libmpi_info_abi.so), and the
 * variants of tests-c/host/local_host.c (HOST_A, HOST_B, HOST_PLAIN, HOST_COPY; paths set by the
 * Makefile) are opened with RTLD_LOCAL, one after another. After each step, through the MPI_
 * and the PMPI_ names of each build: the host codes 5 and 1005 get the answer of the host the
 * documented order picks (the first object in load order that defines PMPI_Error_string /
 * PMPI_Error_class, else the first that defines the MPI_ name, never a copy of mpi-info), or
 * MPI_ERR_ARG with nothing written while there is none; code 1000, which no one owns, is
 * MPI_ERR_ARG with nothing written; mpi-info's nine codes get mpi-info's message and class.
 * An alarm ends the program if a code goes round in a circle. */
#define _GNU_SOURCE 1
#include <dlfcn.h>

/* The libraries are opened with dlopen, never linked: no link check (README.md, "Standard ABI"). */
#define MPI_INFO_NO_LINK_CHECK 1
#include "check.h"

typedef int (*error_string_fn)(int, char *, int *);
typedef int (*error_class_fn)(int, int *);

struct library {
    const char *name;
    error_string_fn string[2]; /* MPI_, PMPI_ */
    error_class_fn class[2];
    error_string_fn own_string; /* MPIX_Info_error_string */
};

static const int HOST_CODES[] = {5, 1005};

static void *open_local(const char *path) {
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        exit(2);
    }
    return handle;
}

static void *symbol(void *handle, const char *name) {
    void *address = dlsym(handle, name);
    if (!address) {
        fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
        exit(2);
    }
    return address;
}

static struct library open_library(const char *path) {
    void *handle = open_local(path);
    struct library library = {path, {0, 0}, {0, 0}, 0};
    /* Object pointers to function pointers: POSIX makes dlsym's result convertible. */
    *(void **)&library.string[0] = symbol(handle, "MPI_Error_string");
    *(void **)&library.string[1] = symbol(handle, "PMPI_Error_string");
    *(void **)&library.class[0] = symbol(handle, "MPI_Error_class");
    *(void **)&library.class[1] = symbol(handle, "PMPI_Error_class");
    *(void **)&library.own_string = symbol(handle, "MPIX_Info_error_string");
    return library;
}

/* Every check of one step for one build; `host` is the name whose answers the host codes must
 * get, NULL when none may answer. */
static void check_step(const struct library *library, const char *step, const char *host) {
    int failed_before = check_failed_count;
    for (int api = 0; api < 2; api++) {
        for (size_t i = 0; i < sizeof HOST_CODES / sizeof HOST_CODES[0]; i++) {
            char message[MPI_MAX_ERROR_STRING], want[MPI_MAX_ERROR_STRING];
            int length = -1, errorclass = -1;
            fill_sentinel(message, sizeof message);
            if (host) {
                int want_length = snprintf(want, sizeof want, "%s: error %d", host, HOST_CODES[i]);
                CHECK_RC(library->string[api](HOST_CODES[i], message, &length), MPI_SUCCESS);
                CHECK(strcmp(message, want) == 0 && length == want_length);
                CHECK_RC(library->class[api](HOST_CODES[i], &errorclass), MPI_SUCCESS);
                CHECK(errorclass == 5);
            } else {
                CHECK_RC(library->string[api](HOST_CODES[i], message, &length), MPI_ERR_ARG);
                CHECK_RC(library->class[api](HOST_CODES[i], &errorclass), MPI_ERR_ARG);
                CHECK(untouched(message, 0, sizeof message) && length == -1 && errorclass == -1);
            }
        }
        char message[MPI_MAX_ERROR_STRING];
        int length = -1, errorclass = -1;
        fill_sentinel(message, sizeof message);
        CHECK_RC(library->string[api](1000, message, &length), MPI_ERR_ARG);
        CHECK_RC(library->class[api](1000, &errorclass), MPI_ERR_ARG);
        CHECK(untouched(message, 0, sizeof message) && length == -1 && errorclass == -1);
        for (int i = 0; i < N_ERROR_CODES; i++) { /* check.h's table */
            char want[MPI_MAX_ERROR_STRING];
            int want_length = -1;
            CHECK_RC(library->own_string(ERROR_CODES[i].code, want, &want_length), MPI_SUCCESS);
            CHECK_RC(library->string[api](ERROR_CODES[i].code, message, &length), MPI_SUCCESS);
            CHECK(strcmp(message, want) == 0 && length == want_length);
            CHECK_RC(library->class[api](ERROR_CODES[i].code, &errorclass), MPI_SUCCESS);
            CHECK(errorclass == ERROR_CODES[i].code);
        }
    }
    if (check_failed_count != failed_before)
        fprintf(stderr, "  in step '%s', %s, expecting %s\n", step, library->name, host ? host : "no host");
}

static void check_both(const struct library libraries[2], const char *step, const char *host) {
    check_step(&libraries[0], step, host);
    check_step(&libraries[1], step, host);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    alarm(60);
    const struct library libraries[2] = {open_library(INT_LIBRARY), open_library(ABI_LIBRARY)};
    check_both(libraries, "no host", NULL);

    /* A copy of mpi-info (it defines MPIX_Info_error_string) is never a host, though it
     * defines PMPI_Error_string and answers code 5 with success. */
    open_local(HOST_COPY);
    check_both(libraries, "a copy of mpi-info loaded", NULL);

    /* A host with the MPI_ names only. */
    open_local(HOST_PLAIN);
    check_both(libraries, "plain host loaded", "plain host");

    /* A host with the PMPI_ names, after it: its PMPI_ name is taken before the first's MPI_. */
    void *host_a = open_local(HOST_A);
    check_both(libraries, "host A loaded", "host A");

    /* Another one after it: load order, the first answers. */
    open_local(HOST_B);
    check_both(libraries, "host B loaded after host A", "host A");

    /* Host A unloaded: nothing of it is remembered, the next one answers. */
    CHECK(dlclose(host_a) == 0);
    CHECK(dlopen(HOST_A, RTLD_NOW | RTLD_NOLOAD) == NULL);
    check_both(libraries, "host A closed", "host B");
    return check_report();
}
