/* instructions.c - N calls of MPI_Info_get, MPI_Info_get_valuelen or MPI_Info_set (of a key
 * that is there, with a value of the same length) on one object of KEYS keys, in a loop of a
 * few instructions, for benches/instructions.sh to count under callgrind.
 *
 * Usage: instructions get|get_valuelen|set KEYS N
 * Keys "hint_000012" (11 bytes) and values "value_000012_with_some_length" (29 bytes), those of
 * benches/info_bench.c's short keys, looked up in the order they were set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_info.h"

#define MAX_KEYS 64

int main(int argc, char **argv) {
    static char keys[MAX_KEYS][16], values[MAX_KEYS][32];
    char value[MPI_MAX_INFO_VAL];
    MPI_Info info;
    int nkeys = argc == 4 ? atoi(argv[2]) : 0, rc = 0, flag = 0, len = 0, k = 0;
    long n = argc == 4 ? atol(argv[3]) : -1;
    if (nkeys < 1 || nkeys > MAX_KEYS || n < 0) {
        fprintf(stderr, "usage: instructions get|get_valuelen|set KEYS(1-%d) N\n", MAX_KEYS);
        return 2;
    }
    rc |= MPI_Info_create(&info);
    for (int i = 0; i < nkeys; i++) {
        snprintf(keys[i], sizeof keys[i], "hint_%06d", i);
        snprintf(values[i], sizeof values[i], "value_%06d_with_some_length", i);
        rc |= MPI_Info_set(info, keys[i], values[i]);
    }
    if (strcmp(argv[1], "get") == 0) {
        for (long i = 0; i < n; i++) {
            rc |= MPI_Info_get(info, keys[k], MPI_MAX_INFO_VAL - 1, value, &flag);
            if (++k == nkeys) k = 0;
        }
    } else if (strcmp(argv[1], "get_valuelen") == 0) {
        for (long i = 0; i < n; i++) {
            rc |= MPI_Info_get_valuelen(info, keys[k], &len, &flag);
            if (++k == nkeys) k = 0;
        }
    } else if (strcmp(argv[1], "set") == 0) {
        for (long i = 0; i < n; i++) {
            rc |= MPI_Info_set(info, keys[k], values[k]);
            if (++k == nkeys) k = 0;
        }
    } else {
        fprintf(stderr, "instructions: unknown call %s\n", argv[1]);
        return 2;
    }
    rc |= MPI_Info_free(&info);
    if (rc != MPI_SUCCESS || (n > 0 && strcmp(argv[1], "set") != 0 && !flag)) {
        fprintf(stderr, "instructions: a call failed\n");
        return 1;
    }
    return 0;
}
