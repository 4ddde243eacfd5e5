/* layered.c - what a layered I/O library's open does with the MPIX_ toolkit.
 *
 * An MPI-IO layer (ROMIO, PnetCDF, the HDF5 MPI-IO driver) gets an info object from the user at
 * open, and with it:
 *   1. merges the system hints file named by ROMIO_HINTS under the user's hints (a key the user
 *      set wins), and the PNETCDF_HINTS variable over them (it wins over both);
 *   2. reads the hints it knows with types, using its defaults where a hint is absent, and
 *      ignoring (with a warning) a hint whose value is not of its type;
 *   3. returns the hints in use as a new object, its defaults included and every other hint
 *      kept (as MPI_File_get_info does);
 *   4. serializes that object, as the first process would to broadcast it, and checks that the
 *      copy another process rebuilds is equal.
 * A malformed hints file or variable is reported and left out whole: nothing of it is set.
 *
 *   cc -std=c99 layered.c $(pkg-config --cflags --libs mpi-info) -o layered
 *   ROMIO_HINTS=/etc/romio-hints PNETCDF_HINTS="cb_nodes=2;romio_no_indep_rw=true" ./layered
 *
 * With LAYERED_WITH_MPI defined it is an MPI program on a host MPI layer whose info object is
 * mpi-info's (docs/embedding.md), such as examples/stub-mpi: rank 0 broadcasts the serialized
 * hints with MPI_Bcast, and every rank rebuilds them and compares them with its own.
 *
 *   cc -std=c99 -DLAYERED_WITH_MPI layered.c -Iexamples/stub-mpi $(pkg-config --cflags mpi-info) \
 *      -o layered -L<stub-mpi's directory> -lstub_mpi $(pkg-config --libs mpi-info) */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef LAYERED_WITH_MPI
#include <mpi.h>
#else
#include "mpi_info.h"
#endif

static const char *error_name(int rc) {
    static char message[MPI_MAX_ERROR_STRING];
    int length;
    if (MPI_Error_string(rc, message, &length) != MPI_SUCCESS) return "unknown error";
    return message;
}

/* A call that must not fail here: say which did and stop. */
static void check(int rc, const char *what) {
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "%s failed: %s\n", what, error_name(rc));
        exit(1);
    }
}

/* The hints this layer knows, with their defaults. */
struct hints {
    int64_t cb_buffer_size;   /* bytes of the collective buffer */
    int cb_nodes;             /* aggregators */
    int cb_write;             /* 0 enable, 1 disable, 2 automatic */
    int no_indep_rw;          /* boolean */
    int cb_config_entries;    /* elements of the cb_config_list list */
};
static const char *const CB_WRITE[] = {"enable", "disable", "automatic"};

/* Whether a typed read gave a value to use: the hint is there and of its type. A value not of
 * its type is ignored with a warning, so the default stays; any other error stops. */
static int usable(int rc, int flag, const char *key) {
    if (rc == MPI_ERR_INFO_VALUE) {
        printf("warning: hint %s ignored: its value is not of its type\n", key);
        return 0;
    }
    check(rc, key);
    return flag;
}

/* Step 1: the user's hints, the system file under them, the environment over them. */
static MPI_Info gather_hints(MPI_Info user) {
    MPI_Info hints;
    check(MPI_Info_dup(user, &hints), "MPI_Info_dup");
    const char *file = getenv("ROMIO_HINTS");
    if (file) {
        int rc = MPIX_Info_set_from_file(hints, file, MPIX_INFO_FORMAT_LINES, 0);
        if (rc != MPI_SUCCESS) printf("system hints file %s left out: %s\n", file, error_name(rc));
    }
    const char *env = getenv("PNETCDF_HINTS");
    if (env) {
        int rc = MPIX_Info_set_from_string(hints, env, MPIX_INFO_FORMAT_PAIRS, 1);
        if (rc != MPI_SUCCESS) printf("PNETCDF_HINTS left out: %s\n", error_name(rc));
    }
    return hints;
}

/* Step 2: the hints this layer uses, typed, with defaults. */
static struct hints read_hints(MPI_Info info) {
    struct hints h = {16777216, 1, 2, 0, 0};
    int flag = 0, value, index, nitems;
    int64_t size;
    int rc = MPIX_Info_get_int64(info, "cb_buffer_size", &size, &flag);
    if (usable(rc, flag, "cb_buffer_size")) h.cb_buffer_size = size;
    rc = MPIX_Info_get_int(info, "cb_nodes", &value, &flag);
    if (usable(rc, flag, "cb_nodes")) h.cb_nodes = value;
    rc = MPIX_Info_get_enum(info, "romio_cb_write", 3, CB_WRITE, &index, &flag);
    if (usable(rc, flag, "romio_cb_write")) h.cb_write = index;
    rc = MPIX_Info_get_bool(info, "romio_no_indep_rw", &value, &flag);
    if (usable(rc, flag, "romio_no_indep_rw")) h.no_indep_rw = value;
    rc = MPIX_Info_get_nitems(info, "cb_config_list", &nitems, &flag);
    if (usable(rc, flag, "cb_config_list")) h.cb_config_entries = nitems;
    return h;
}

/* Step 3: a new object with the hints in use: this layer's, in canonical text, then every
 * other hint it was given. */
static MPI_Info hints_in_use(const struct hints *h, MPI_Info given) {
    MPI_Info used;
    check(MPI_Info_create(&used), "MPI_Info_create");
    check(MPIX_Info_set_int64(used, "cb_buffer_size", h->cb_buffer_size), "MPIX_Info_set_int64");
    check(MPIX_Info_set_int64(used, "cb_nodes", h->cb_nodes), "MPIX_Info_set_int64");
    check(MPI_Info_set(used, "romio_cb_write", CB_WRITE[h->cb_write]), "MPI_Info_set");
    check(MPIX_Info_set_bool(used, "romio_no_indep_rw", h->no_indep_rw), "MPIX_Info_set_bool");
    check(MPIX_Info_merge(used, given, 0), "MPIX_Info_merge");
    return used;
}

/* Step 4: the serialized copy a broadcast would carry, rebuilt as another process would. */
static void broadcast_copy(MPI_Info used) {
    int size = 0;
#ifdef LAYERED_WITH_MPI
    /* Rank 0 serializes; every rank receives the size, then the bytes. */
    int rank;
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    if (rank == 0) check(MPIX_Info_serialize(used, &size, NULL), "MPIX_Info_serialize");
    check(MPI_Bcast(&size, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
    void *bytes = malloc((size_t)size);
    if (!bytes) exit(1);
    if (rank == 0) check(MPIX_Info_serialize(used, &size, bytes), "MPIX_Info_serialize");
    check(MPI_Bcast(bytes, size, MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
#else
    check(MPIX_Info_serialize(used, &size, NULL), "MPIX_Info_serialize");
    void *bytes = malloc((size_t)size);
    if (!bytes) exit(1);
    check(MPIX_Info_serialize(used, &size, bytes), "MPIX_Info_serialize");
    /* ... MPI_Bcast(&size, 1, MPI_INT, 0, comm); MPI_Bcast(bytes, size, MPI_BYTE, 0, comm); ... */
#endif
    MPI_Info received;
    int equal = 0;
    check(MPIX_Info_deserialize(bytes, size, &received), "MPIX_Info_deserialize");
    check(MPIX_Info_equal(received, used, 1, &equal), "MPIX_Info_equal");
    printf("broadcast copy: %d bytes, %s\n", size, equal ? "equal" : "DIFFERENT");
    check(MPI_Info_free(&received), "MPI_Info_free");
    free(bytes);
}

static void print_all(const char *title, MPI_Info info) {
    int nkeys;
    check(MPI_Info_get_nkeys(info, &nkeys), "MPI_Info_get_nkeys");
    printf("%s (%d):\n", title, nkeys);
    for (int n = 0; n < nkeys; n++) {
        char key[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL];
        int flag;
        check(MPI_Info_get_nthkey(info, n, key), "MPI_Info_get_nthkey");
        check(MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, value, &flag), "MPI_Info_get");
        printf("  %s = %s\n", key, value);
    }
}

int main(void) {
#ifdef LAYERED_WITH_MPI
    check(MPI_Init(NULL, NULL), "MPI_Init");
#endif
    /* What the application passes to the open call. */
    MPI_Info user;
    check(MPI_Info_create(&user), "MPI_Info_create");
    check(MPI_Info_set(user, "cb_buffer_size", "8388608"), "MPI_Info_set");
    check(MPI_Info_set(user, "romio_cb_write", "disable"), "MPI_Info_set");
    check(MPI_Info_set(user, "app_checkpoint_tag", "step-42"), "MPI_Info_set");

    /* The layer's open. */
    MPI_Info given = gather_hints(user);
    struct hints h = read_hints(given);
    MPI_Info used = hints_in_use(&h, given);
    printf("layer uses: cb_buffer_size %" PRId64 ", cb_nodes %d, romio_cb_write %s, romio_no_indep_rw %s, "
           "cb_config_list entries %d\n",
           h.cb_buffer_size, h.cb_nodes, CB_WRITE[h.cb_write], h.no_indep_rw ? "true" : "false", h.cb_config_entries);
    print_all("hints in use", used);
    broadcast_copy(used);

    check(MPI_Info_free(&used), "MPI_Info_free");
    check(MPI_Info_free(&given), "MPI_Info_free");
    check(MPI_Info_free(&user), "MPI_Info_free");
#ifdef LAYERED_WITH_MPI
    check(MPI_Finalize(), "MPI_Finalize");
#endif
    return 0;
}
