/* hints_bench.c - MPIX_Info_check timed through the public API.
 *
 * One object of 20 hints of the kind a job passes to MPI_File_open (ROMIO's and OMPIO's,
 * values as users write them), checked against every target, against MPICH alone, and with
 * two of its keys misspelled (an unknown key costs the edit distances to every known key).
 * Each result is the best of 5 measurements of at least BENCH_SECONDS (0.2 s), one line per
 * case: "case<TAB>microseconds per call". The first call, which reads the built-in vocabulary,
 * is made before timing and reported on its own line. */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mpi_info.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define OK(call)                                                                   \
    do {                                                                           \
        int rc_ = (call);                                                          \
        if (rc_ != MPI_SUCCESS) {                                                  \
            fprintf(stderr, "hints_bench: %s failed with %d\n", #call, rc_);       \
            exit(2);                                                               \
        }                                                                          \
    } while (0)

static const char *const hints[20][2] = {
    {"cb_buffer_size", "16777216"},      {"cb_nodes", "8"},
    {"romio_cb_read", "enable"},         {"romio_cb_write", "enable"},
    {"romio_ds_read", "disable"},        {"romio_ds_write", "disable"},
    {"striping_factor", "16"},           {"striping_unit", "1048576"},
    {"ind_rd_buffer_size", "4194304"},   {"ind_wr_buffer_size", "524288"},
    {"romio_no_indep_rw", "false"},      {"romio_cb_pfr", "disable"},
    {"collective_buffering", "true"},    {"access_style", "write_once,sequential"},
    {"romio_lustre_co_ratio", "1"},      {"romio_lustre_coll_threshold", "0"},
    {"cb_block_size", "1048576"},        {"file_perm", "0644"},
    {"nc_header_align_size", "1048576"}, {"nc_record_align_size", "4096"},
};

static MPI_Info object(int misspelled) {
    MPI_Info info;
    OK(MPI_Info_create(&info));
    for (int i = 0; i < 20; i++) OK(MPI_Info_set(info, hints[i][0], hints[i][1]));
    if (misspelled) {
        OK(MPI_Info_delete(info, "cb_nodes"));
        OK(MPI_Info_delete(info, "striping_unit"));
        OK(MPI_Info_set(info, "cb_ndoes", "8"));
        OK(MPI_Info_set(info, "stripping_unit", "1048576"));
    }
    return info;
}

/* Microseconds per MPIX_Info_check (and the free of its result), best of 5. */
static double time_check(MPI_Info info, const char *targets) {
    double bench_seconds = getenv("BENCH_SECONDS") ? atof(getenv("BENCH_SECONDS")) : 0.2;
    double best = 1e30;
    for (int round = 0; round < 5; round++) {
        long calls = 0;
        double start = now(), elapsed;
        do {
            for (int i = 0; i < 100; i++) {
                MPI_Info found;
                OK(MPIX_Info_check(info, targets, &found));
                OK(MPI_Info_free(&found));
            }
            calls += 100;
            elapsed = now() - start;
        } while (elapsed < bench_seconds);
        if (elapsed / (double)calls < best) best = elapsed / (double)calls;
    }
    return best * 1e6;
}

int main(void) {
    MPI_Info clean = object(0), typos = object(1), found;
    double start = now();
    OK(MPIX_Info_check(clean, NULL, &found));
    printf("first call (reads the vocabulary)\t%.1f\n", (now() - start) * 1e6);
    int nkeys;
    OK(MPI_Info_get_nkeys(found, &nkeys));
    OK(MPI_Info_free(&found));
    if (nkeys != 0) {
        fprintf(stderr, "hints_bench: the 20 hints should give no finding, gave %d\n", nkeys);
        return 2;
    }
    printf("20 keys, every target\t%.2f\n", time_check(clean, NULL));
    printf("20 keys, mpich\t%.2f\n", time_check(clean, "mpich"));
    printf("20 keys, 2 misspelled, every target\t%.2f\n", time_check(typos, NULL));
    OK(MPI_Info_free(&clean));
    OK(MPI_Info_free(&typos));
    return 0;
}
