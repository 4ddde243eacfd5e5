/*
 * The I/O-stack programs of hintcheck/tests/run.sh: an HDF5 program (built with h5pcc, -DSTACK_HDF5)
 * and a PnetCDF program (built with -DSTACK_PNETCDF and -lpnetcdf), each creating one file with
 * hints given to the library and writing to it collectively:
 *
 *   stackjob MODE DIR
 *
 *   clean       hints every layer reads as meant
 *   misspelled  a key misspelled
 *   suffix      a size with a unit suffix, read by atoi or strtoll (16M; PnetCDF: nc_var_align_size=1m)
 *   differ      a hint whose value differs between ranks (odd ranks another one)
 *   romio       the program sets cb_nodes, which the ROMIO_HINTS file of run.sh sets too
 *   env         (PnetCDF) the hints of clean, run with PNETCDF_HINTS
 *
 * HDF5: H5Pset_fapl_mpio with the hints, H5Fcreate, a dataset written with H5FD_MPIO_COLLECTIVE.
 * PnetCDF: ncmpi_create with the hints, a variable written with ncmpi_put_vara_int_all.
 *
 * Loaded late, as Python loads h5py after mpi4py: built with -DSTACK_MODULE (and -DSTACK_HDF5) it is
 * a shared object linked with HDF5 that defines stack_job() and no main; built with -DSTACK_LATE
 * (and linked with no library but the MPI) it is a program that, after MPI_Init, loads that object
 * with dlopen(RTLD_LOCAL), so that HDF5 is in no global scope, and runs it:
 *
 *   stackjob MODE DIR MODULE
 *
 * Rank 0 writes DIR/MODE.truth: what the layers themselves report, one "key<TAB>value" line each,
 * for check_report.py to compare the report with: "version" (H5get_libversion or
 * ncmpi_inq_libvers), then the file's hints, as the MPI reports them for HDF5 (MPI_File_get_info on
 * the handle H5Fget_vfd_handle gives: HDF5 1.10.8's H5Pget_fapl_mpio gives back the caller's info
 * unchanged) and as PnetCDF reports them (ncmpi_inq_file_info). Standard output: one line on rank 0,
 * the same with and without the tool.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef STACK_LATE
#include <dlfcn.h>
#endif
#ifdef STACK_HDF5
#include <hdf5.h>
#endif
#ifdef STACK_PNETCDF
#include <pnetcdf.h>
#endif

static int rank, size;

#ifndef STACK_LATE
/* The program's hints for each mode. */
static MPI_Info hints(const char *mode) {
    MPI_Info info;
    MPI_Info_create(&info);
#ifdef STACK_HDF5
    if (strcmp(mode, "misspelled") == 0) MPI_Info_set(info, "cb_nodse", "1");
    else if (strcmp(mode, "suffix") == 0) MPI_Info_set(info, "cb_buffer_size", "16M");
    else if (strcmp(mode, "differ") == 0) MPI_Info_set(info, "access_style", rank % 2 ? "write_once" : "write_mostly");
    else {
        MPI_Info_set(info, "cb_nodes", "1");
        MPI_Info_set(info, "cb_buffer_size", "16777216");
    }
#else
    if (strcmp(mode, "misspelled") == 0) MPI_Info_set(info, "nc_var_algn_size", "512");
    else if (strcmp(mode, "suffix") == 0) MPI_Info_set(info, "nc_var_align_size", "1m");
    else if (strcmp(mode, "differ") == 0) MPI_Info_set(info, "nc_header_align_size", rank % 2 ? "1024" : "512");
    else {
        MPI_Info_set(info, "nc_header_align_size", "512");
        MPI_Info_set(info, "cb_nodes", "1");
    }
#endif
    return info;
}

/* Rank 0: the layer's version and the pairs of info into DIR/MODE.truth. */
static void truth(const char *dir, const char *mode, const char *version, MPI_Info info) {
    char path[4096];
    int nkeys = 0;
    if (rank != 0) return;
    snprintf(path, sizeof path, "%s/%s.truth", dir, mode);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return; }
    fprintf(f, "version\t%s\n", version);
    MPI_Info_get_nkeys(info, &nkeys);
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        MPI_Info_get_nthkey(info, i, key);
        MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
        if (flag) fprintf(f, "%s\t%s\n", key, value);
    }
    fclose(f);
}

#ifdef STACK_HDF5
int stack_job(const char *mode, const char *dir);
int stack_job(const char *mode, const char *dir) {
    char path[4096], version[64];
    unsigned maj, min, rel;
    int data[4];
    hsize_t dims[1] = {(hsize_t)size * 4}, start[1] = {(hsize_t)rank * 4}, count[1] = {4};
    MPI_Info info = hints(mode);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, info);
    MPI_Info_free(&info);
    snprintf(path, sizeof path, "%s/%s.h5", dir, mode);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (file < 0) return 1;
    MPI_File *fh = NULL;
    MPI_Info used = MPI_INFO_NULL;
    H5get_libversion(&maj, &min, &rel);
    snprintf(version, sizeof version, "%u.%u.%u", maj, min, rel);
    if (H5Fget_vfd_handle(file, fapl, (void **)&fh) >= 0 && fh && MPI_File_get_info(*fh, &used) == MPI_SUCCESS) {
        truth(dir, mode, version, used);
        MPI_Info_free(&used);
    }
    hid_t space = H5Screate_simple(1, dims, NULL), mem = H5Screate_simple(1, count, NULL);
    hid_t set = H5Dcreate2(file, "data", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t xfer = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE);
    for (int i = 0; i < 4; i++) data[i] = rank * 100 + i;
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL);
    herr_t written = H5Dwrite(set, H5T_NATIVE_INT, mem, space, xfer, data);
    H5Pclose(xfer); H5Dclose(set); H5Sclose(mem); H5Sclose(space);
    H5Fclose(file);
    H5Pclose(fapl);
    if (rank == 0) printf("stackjob hdf5 %s: %d processes, write %s\n", mode, size, written < 0 ? "failed" : "done");
    return written < 0;
}
#endif

#ifdef STACK_PNETCDF
int stack_job(const char *mode, const char *dir);
int stack_job(const char *mode, const char *dir) {
    char path[4096];
    int ncid, dim, var, data[4];
    MPI_Offset start[1] = {(MPI_Offset)rank * 4}, count[1] = {4};
    MPI_Info info = hints(mode), used = MPI_INFO_NULL;
    snprintf(path, sizeof path, "%s/%s.nc", dir, mode);
    int err = ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER, info, &ncid);
    MPI_Info_free(&info);
    if (err != NC_NOERR) { if (rank == 0) printf("stackjob pnetcdf %s: %s\n", mode, ncmpi_strerror(err)); return 1; }
    if (ncmpi_inq_file_info(ncid, &used) == NC_NOERR) {
        truth(dir, mode, ncmpi_inq_libvers(), used);
        MPI_Info_free(&used);
    }
    ncmpi_def_dim(ncid, "x", (MPI_Offset)size * 4, &dim);
    ncmpi_def_var(ncid, "data", NC_INT, 1, &dim, &var);
    ncmpi_enddef(ncid);
    for (int i = 0; i < 4; i++) data[i] = rank * 100 + i;
    err = ncmpi_put_vara_int_all(ncid, var, start, count, data);
    ncmpi_close(ncid);
    if (rank == 0) printf("stackjob pnetcdf %s: %d processes, write %s\n", mode, size, err == NC_NOERR ? "done" : "failed");
    return err != NC_NOERR;
}
#endif

#endif /* !STACK_LATE */

#ifndef STACK_MODULE
int main(int argc, char **argv) {
    int status = 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef STACK_LATE
    void *module = argc == 4 ? dlopen(argv[3], RTLD_NOW | RTLD_LOCAL) : NULL;
    int (*job)(const char *, const char *) = NULL;
    if (module) *(void **)&job = dlsym(module, "stack_job");
    if (job) status = job(argv[1], argv[2]);
    else if (rank == 0) fprintf(stderr, "usage: stackjob MODE DIR MODULE (%s)\n", module ? "no stack_job" : dlerror());
#else
    if (argc == 3) status = stack_job(argv[1], argv[2]);
    else if (rank == 0) fprintf(stderr, "usage: stackjob clean|misspelled|suffix|differ|romio|env DIR\n");
#endif
    MPI_Finalize();
    return status;
}
#else
/* The module's rank and size, from MPI_COMM_WORLD when it is loaded (after MPI_Init). */
__attribute__((constructor)) static void module_init(void) {
    int inited = 0;
    MPI_Initialized(&inited);
    if (inited) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
    }
}
#endif
