/* The program of docs/hintcheck.md's example report: a file opened with four hints, one of them
 * different on rank 1. Build it with the MPI's mpicc; run it under mpirun with
 * LD_PRELOAD=<prefix>/lib/libmpi_info_hintcheck.so and MPI_INFO_HINTCHECK=report.json. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank;
    MPI_File fh;
    MPI_Info info;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "16M");
    MPI_Info_set(info, "striping_factr", "4");
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "cb_nodes", rank == 1 ? "2" : "1");
    MPI_File_open(MPI_COMM_WORLD, argc > 1 ? argv[1] : "example.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
    MPI_Info_free(&info);
    MPI_File_close(&fh);
    if (rank == 0) printf("done\n");
    MPI_Finalize();
    return 0;
}
