/* hints.c - a first tour of mpi-info: what `make run` builds and runs.
 *
 * Builds a set of MPI-IO style hints, lists them in order, duplicates them, reads a value
 * with MPI_Info_get_string into a buffer that is too small (and learns the size it needs),
 * and prints MPI_INFO_ENV. Extra hints can be given as `--hint key=value`.
 *
 *   cc -std=c99 hints.c $(pkg-config --cflags --libs mpi-info) -o hints && ./hints */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_info.h"

/* Every call returns MPI_SUCCESS or an error class; say which and stop. */
static void check(int rc, const char *what) {
    if (rc != MPI_SUCCESS) {
        char message[MPI_MAX_ERROR_STRING];
        int length;
        MPI_Error_string(rc, message, &length);
        fprintf(stderr, "%s failed: %s\n", what, message);
        exit(1);
    }
}

static void print_all(const char *title, MPI_Info info) {
    int nkeys;
    check(MPI_Info_get_nkeys(info, &nkeys), "MPI_Info_get_nkeys");
    printf("%s (%d pairs)\n", title, nkeys);
    for (int n = 0; n < nkeys; n++) {
        char key[MPI_MAX_INFO_KEY];
        char value[MPI_MAX_INFO_VAL];
        int buflen = sizeof value, flag;
        check(MPI_Info_get_nthkey(info, n, key), "MPI_Info_get_nthkey");
        check(MPI_Info_get_string(info, key, &buflen, value, &flag), "MPI_Info_get_string");
        printf("  %-16s = %s\n", key, value);
    }
}

int main(int argc, char **argv) {
    MPI_Info hints;
    check(MPI_Info_create(&hints), "MPI_Info_create");
    check(MPI_Info_set(hints, "cb_buffer_size", "16777216"), "MPI_Info_set");
    check(MPI_Info_set(hints, "romio_cb_write", "enable"), "MPI_Info_set");
    check(MPI_Info_set(hints, "my_layer_hint", "kept even though nobody here knows it"),
          "MPI_Info_set");
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--hint") == 0) {
            const char *pair = argv[++i];
            const char *equals = strchr(pair, '=');
            char key[MPI_MAX_INFO_KEY];
            size_t keylen = equals ? (size_t)(equals - pair) : 0;
            if (equals == NULL || keylen >= sizeof key) continue;
            memcpy(key, pair, keylen);
            key[keylen] = '\0';
            check(MPI_Info_set(hints, key, equals + 1), "MPI_Info_set");
        }
    }
    /* Replacing a value keeps the key where it was. */
    check(MPI_Info_set(hints, "cb_buffer_size", "33554432"), "MPI_Info_set");
    print_all("hints", hints);

    /* A duplicate is independent: changing it leaves the original alone. */
    MPI_Info copy;
    check(MPI_Info_dup(hints, &copy), "MPI_Info_dup");
    check(MPI_Info_delete(copy, "romio_cb_write"), "MPI_Info_delete");
    print_all("duplicate, after deleting romio_cb_write", copy);

    /* MPI_Info_get_string tells how big a buffer the whole value needs. */
    char small[8];
    int buflen = (int)sizeof small, flag;
    check(MPI_Info_get_string(hints, "my_layer_hint", &buflen, small, &flag),
          "MPI_Info_get_string");
    printf("get_string into 8 bytes: \"%s\"; the whole value needs %d bytes\n", small, buflen);

    /* Errors are classes, never crashes: a freed handle is recognised. */
    MPI_Info freed = copy;
    check(MPI_Info_free(&copy), "MPI_Info_free");
    int nkeys, rc = MPI_Info_get_nkeys(freed, &nkeys);
    char message[MPI_MAX_ERROR_STRING];
    int length;
    MPI_Error_string(rc, message, &length);
    printf("using the freed duplicate: %s\n", message);

    print_all("MPI_INFO_ENV", MPI_INFO_ENV);
    check(MPI_Info_free(&hints), "MPI_Info_free");
    return 0;
}
