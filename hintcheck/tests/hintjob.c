/*
 * The MPI program of hintcheck/tests/run.sh: each mode makes calls with hints of the test's own
 * making; the script runs it under mpirun with and without libmpi_info_hintcheck and checks the
 * report with check_report.py.
 *
 *   hintjob codes DIR      a file (open, set_view, set_info), a window (allocate, set_info) and
 *                          communicators (dup_with_info, set_info, split_type) with hints that
 *                          give every diagnostic code and every effective status
 *   hintjob disagree DIR   the processes pass different file hints (and a communicator hint
 *                          only on some ranks); no collective I/O follows (on Open MPI 4.1.4
 *                          the collective write after such an open can crash)
 *   hintjob hang DIR       romio_no_indep_rw passed by the last rank only: MPICH 4.0.2 hangs in
 *                          MPI_File_open (run.sh bounds it with timeout)
 *   hintjob long DIR       a file hint with a 40-character key (run with
 *                          MPI_INFO_HINTCHECK_TARGETS=mpich,openmpi on MPICH: too long for Open MPI)
 *   hintjob repeat DIR     the same file opened 3 times with the same hints, a second file once
 *   hintjob threads DIR    MPI_THREAD_MULTIPLE: 2 threads, each 20 MPI_Comm_dup_with_info on a
 *                          communicator of its own, and a file opened meanwhile
 *   hintjob windows DIR    MPI_Win_create, MPI_Win_allocate_shared, MPI_Win_create_dynamic with
 *                          no_locks=true
 *   hintjob plain DIR      an ordinary program: a collective write and read of a file opened
 *                          with hints the MPI takes as they are, output on rank 0, exit status 3 on rank 0
 *   hintjob many DIR N     N files opened (and deleted on close), each once, with the same hints
 *   hintjob die DIR N      the same file opened N times, then 3 s of sleep, and every process
 *                          kills itself (SIGKILL) without MPI_Finalize
 *   hintjob longkey DIR    a file opened with a key of 255 characters (MPICH 4.0.2's
 *                          MPI_Info_get_nthkey gives it cut to 254) and cb_nodes=1
 *   hintjob controls DIR   a key, a value and a file name holding ESC, BEL, a newline and a
 *                          byte that is not UTF-8; a value of that kind that differs by rank
 *   hintjob fail DIR       MPI_File_open of a file in a directory that does not exist (the
 *                          call fails; the program goes on)
 *   hintjob redisagree DIR the same MPI_Comm_dup_with_info, whose processes disagree on one
 *                          key, made 3 times
 *   hintjob fork DIR       a child made with fork (it sleeps 1.5 s and leaves with _exit)
 *                          while the parent opens 50 files
 *   hintjob opens DIR N    N files opened with the 20 hints of bench, each once (and deleted on
 *                          close); rank 0 prints the seconds they took
 *   hintjob bench DIR N    MPI_File_open + MPI_File_close with 20 hints, alternating with
 *                          PMPI_File_open + PMPI_File_close (past the tool), N times each after a
 *                          warm-up; rank 0 prints the medians in microseconds (and the median
 *                          of the differences of adjacent pairs)
 */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int rank, size;

static MPI_Info make(const char *const *pairs) {
    MPI_Info info;
    MPI_Info_create(&info);
    for (int i = 0; pairs[i]; i += 2) MPI_Info_set(info, pairs[i], pairs[i + 1]);
    return info;
}

static char path[4096];
static const char *file_in(const char *dir, const char *name) {
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

/* The hints of each code and status (docs/hintcheck.md lists what each MPI does with them). */
static const char *const FILE_HINTS[] = {
    "cb_buffer_size", "16M",            /* unit-suffix; misread (reported as given) */
    "striping_factr", "4",              /* unknown-key, suggestion striping_factor */
    "romio_cb_write", "maybe",          /* bad-value; MPICH: changed (to automatic) */
    "striping_factor", "-3",            /* out-of-range */
    "cb_nodes", "1",                    /* kept */
    "cb_config_list", "*:1",            /* Open MPI: not-read-by-target */
    "romio_cb_read", "disable",         /* MPICH: conflict (romio_no_indep_rw turns it back on) */
    "romio_no_indep_rw", "true",
    "stripe_width", "2",                /* Open MPI: conflict (with striping_factor); MPICH: not-read-by-target */
    NULL};
static const char *const VIEW_HINTS[] = {"ind_rd_buffer_size", "1048576", NULL};
static const char *const SET_HINTS[] = {"romio_ds_read", "disable", NULL};
static const char *const WIN_HINTS[] = {
    "no_locks", "true",
    "accumulate_ordering", "none",
    "no_lock", "true",                  /* unknown-key, suggestion no_locks */
    "same_size", "maybe",               /* bad-value */
    NULL};
static const char *const WIN_SET_HINTS[] = {"accumulate_ordering", "rar,war", NULL};
static const char *const COMM_HINTS[] = {
    "mpi_assert_no_any_tag", "true",
    "mpi_assert_allow_overtaking", "yes",     /* bad-value */
    "mpi_assert_no_any_sourc", "true",        /* unknown-key */
    NULL};
static const char *const COMM_SET_HINTS[] = {"mpi_assert_allow_overtaking", "true", NULL};

static int codes(const char *dir) {
    MPI_File fh;
    MPI_Info info = make(FILE_HINTS);
    MPI_File_open(MPI_COMM_WORLD, file_in(dir, "codes.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    info = make(VIEW_HINTS);
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", info);
    MPI_Info_free(&info);
    info = make(SET_HINTS);
    MPI_File_set_info(fh, info);
    MPI_Info_free(&info);
    MPI_File_close(&fh);

    MPI_Win win;
    void *base;
    info = make(WIN_HINTS);
    MPI_Win_allocate(64, 1, info, MPI_COMM_WORLD, &base, &win);
    MPI_Info_free(&info);
    info = make(WIN_SET_HINTS);
    MPI_Win_set_info(win, info);
    MPI_Info_free(&info);
    MPI_Win_free(&win);

    MPI_Comm dup, node;
    info = make(COMM_HINTS);
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, info, &node);
    MPI_Info_free(&info);
    info = make(COMM_SET_HINTS);
    MPI_Comm_set_info(dup, info);
    MPI_Info_free(&info);
    MPI_Comm_free(&node);
    MPI_Comm_free(&dup);
    if (rank == 0) printf("codes: done\n");
    return 0;
}

static int disagree(const char *dir) {
    MPI_File fh;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "16777216");
    /* Ranks 0 and 2 say 1, ranks 1 and 3 say 2. */
    MPI_Info_set(info, "cb_nodes", rank % 2 ? "2" : "1");
    /* Only the last rank passes this one. */
    if (rank == size - 1) MPI_Info_set(info, "access_style", "read_once");
    MPI_File_open(MPI_COMM_WORLD, file_in(dir, "disagree.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    MPI_File_close(&fh);

    MPI_Comm dup;
    MPI_Info_create(&info);
    if (rank == 0) MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup);
    MPI_Info_free(&info);
    MPI_Comm_free(&dup);
    if (rank == 0) printf("disagree: done\n");
    return 0;
}

static int long_key(const char *dir) {
    MPI_File fh;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_this_key_is_forty_characters_long_", "1");
    MPI_File_open(MPI_COMM_WORLD, file_in(dir, "long.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    MPI_File_close(&fh);
    return 0;
}

static int repeat(const char *dir) {
    static const char *const hints[] = {"cb_buffer_size", "16M", "cb_nodes", "1", NULL};
    MPI_Info info = make(hints);
    MPI_File fh;
    for (int i = 0; i < 3; i++) {
        MPI_File_open(MPI_COMM_WORLD, file_in(dir, "repeat1.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
        MPI_File_close(&fh);
    }
    MPI_File_open(MPI_COMM_WORLD, file_in(dir, "repeat2.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_File_close(&fh);
    MPI_Info_free(&info);
    return 0;
}

static MPI_Comm thread_comms[2];
static void *dups(void *arg) {
    MPI_Comm comm = thread_comms[(intptr_t)arg];
    static const char *const hints[] = {"mpi_assert_no_any_tag", "true", "mpi_assert_no_any_sourc", "true", NULL};
    MPI_Info info = make(hints);
    for (int i = 0; i < 20; i++) {
        MPI_Comm dup;
        MPI_Comm_dup_with_info(comm, info, &dup);
        MPI_Comm_free(&dup);
    }
    MPI_Info_free(&info);
    return NULL;
}

static int threads(const char *dir) {
    pthread_t t[2];
    int provided = 0;
    MPI_Query_thread(&provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        if (rank == 0) printf("threads: MPI_THREAD_MULTIPLE not provided\n");
        return 1;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &thread_comms[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &thread_comms[1]);
    for (intptr_t i = 0; i < 2; i++) pthread_create(&t[i], NULL, dups, (void *)i);
    static const char *const hints[] = {"cb_nodes", "1", NULL};
    MPI_Info info = make(hints);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, file_in(dir, "threads.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_File_close(&fh);
    MPI_Info_free(&info);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    MPI_Comm_free(&thread_comms[0]);
    MPI_Comm_free(&thread_comms[1]);
    if (rank == 0) printf("threads: done\n");
    return 0;
}

static int windows(void) {
    static const char *const hints[] = {"no_locks", "true", NULL};
    MPI_Info info = make(hints);
    MPI_Win win;
    static char memory[64];
    void *base;
    MPI_Win_create(memory, sizeof memory, 1, info, MPI_COMM_WORLD, &win);
    MPI_Win_free(&win);
    MPI_Win_allocate_shared(64, 1, info, MPI_COMM_WORLD, &base, &win);
    MPI_Win_free(&win);
    MPI_Win_create_dynamic(info, MPI_COMM_WORLD, &win);
    MPI_Win_free(&win);
    MPI_Info_free(&info);
    return 0;
}

static int hang(const char *dir) {
    MPI_File fh;
    MPI_Info info;
    MPI_Info_create(&info);
    if (rank == size - 1) MPI_Info_set(info, "romio_no_indep_rw", "true");
    MPI_File_open(MPI_COMM_WORLD, file_in(dir, "hang.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    MPI_File_close(&fh);
    return 0;
}

static int plain(const char *dir) {
    MPI_File fh;
    MPI_Info info;
    int mine = rank + 1, sum = 0, back[4] = {0, 0, 0, 0}, data[4];
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", "1");
    MPI_File_open(MPI_COMM_WORLD, file_in(dir, "plain.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    for (int i = 0; i < 4; i++) data[i] = rank * 100 + i;
    MPI_File_write_at_all(fh, (MPI_Offset)rank * (MPI_Offset)sizeof data, data, 4, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_read_at_all(fh, (MPI_Offset)((rank + 1) % size) * (MPI_Offset)sizeof data, back, 4, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    int check = back[0] + back[3], total = 0;
    MPI_Reduce(&check, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("plain: %d processes, sum %d, file check %d\n", size, sum, total);
    return rank == 0 ? 3 : 0;   /* one process, so that Open MPI names the same one every run */
}

static void sleep_seconds(double s) {
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) != 0) {}
}

static int many(const char *dir, int n) {
    static const char *const hints[] = {"cb_nodes", "1", NULL};
    MPI_Info info = make(hints);
    for (int i = 0; i < n; i++) {
        char name[64];
        MPI_File fh;
        snprintf(name, sizeof name, "many%d.dat", i);
        MPI_File_open(MPI_COMM_WORLD, file_in(dir, name), MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, info, &fh);
        MPI_File_close(&fh);
    }
    MPI_Info_free(&info);
    if (rank == 0) printf("many: done\n");
    return 0;
}

static int die(const char *dir, int n) {
    static const char *const hints[] = {"cb_buffer_size", "16M", NULL};
    MPI_Info info = make(hints);
    for (int i = 0; i < n; i++) {
        MPI_File fh;
        MPI_File_open(MPI_COMM_WORLD, file_in(dir, "die.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
        MPI_File_close(&fh);
    }
    MPI_Info_free(&info);
    MPI_Barrier(MPI_COMM_WORLD);
    sleep_seconds(3);
    raise(SIGKILL);
    return 0;
}

static int longkey(const char *dir) {
    char key[256];
    memset(key, 'k', 255);
    memcpy(key, "romio_", 6);
    key[255] = '\0';
    MPI_Info info;
    MPI_File fh;
    MPI_Info_create(&info);
    if (MPI_Info_set(info, key, "1") != MPI_SUCCESS) printf("longkey: MPI_Info_set refused the key\n");
    MPI_Info_set(info, "cb_nodes", "1");
    MPI_File_open(MPI_COMM_WORLD, file_in(dir, "longkey.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    MPI_File_close(&fh);
    if (rank == 0) printf("longkey: done\n");
    return 0;
}

/* ESC, BEL, a newline and 0xff, a byte that is not UTF-8. */
static int controls(const char *dir) {
    MPI_Info info;
    MPI_File fh;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_\x1b[31mkey\x07\nx\xff", "v\x1b\x07\nv\xff");
    MPI_Info_set(info, "cb_nodes", rank % 2 ? "2\x1b\x07\n" : "1\x1b\x07\n");
    MPI_File_open(MPI_COMM_WORLD, file_in(dir, "ctl\x1b[31m\x07\n\xff.dat"), MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, info, &fh);
    MPI_Info_free(&info);
    MPI_File_close(&fh);
    if (rank == 0) printf("controls: done\n");
    return 0;
}

static int fail(const char *dir) {
    static const char *const hints[] = {"cb_nodes", "1", NULL};
    MPI_Info info = make(hints);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, file_in(dir, "no/such/dir/fail.dat"), MPI_MODE_RDONLY, info, &fh);
    MPI_Info_free(&info);
    if (rank == 0) printf("fail: the open %s\n", rc == MPI_SUCCESS ? "succeeded" : "failed");
    return 0;
}

static int redisagree(void) {
    for (int i = 0; i < 3; i++) {
        MPI_Comm dup;
        MPI_Info info;
        MPI_Info_create(&info);
        if (rank == 0) MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
        MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup);
        MPI_Info_free(&info);
        MPI_Comm_free(&dup);
    }
    if (rank == 0) printf("redisagree: done\n");
    return 0;
}

static int forked(const char *dir) {
    pid_t child = fork();
    if (child == 0) {
        sleep_seconds(1.5);
        _exit(0);
    }
    int status = -1;
    many(dir, 50);
    if (child > 0) waitpid(child, &status, 0);
    if (rank == 0) printf("fork: the child left with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of this process's times, then the largest median over the processes. */
static double median_max(double *t, int n) {
    double m, worst = 0;
    qsort(t, (size_t)n, sizeof(double), cmp_double);
    m = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    MPI_Allreduce(&m, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

/* MPI_File_open + MPI_File_close (through the tool when it is preloaded) and
 * PMPI_File_open + PMPI_File_close (straight to the MPI) in alternation, each pair timed after a
 * barrier; the median of each, and of one small allreduce. On a shared machine the alternation
 * in one process is what makes the two comparable. */
static const char *const BENCH_HINTS[] = {
    "cb_buffer_size", "16777216", "cb_nodes", "1", "romio_cb_read", "automatic",
    "romio_cb_write", "automatic", "romio_ds_read", "automatic", "romio_ds_write", "automatic",
    "ind_rd_buffer_size", "4194304", "ind_wr_buffer_size", "524288", "romio_no_indep_rw", "false",
    "cb_config_list", "*:1", "striping_factor", "1", "striping_unit", "1048576",
    "access_style", "read_mostly", "collective_buffering", "true", "file_perm", "644",
    "romio_cb_pfr", "disable", "romio_cb_fr_types", "aar", "romio_cb_alltoall", "automatic",
    "romio_synchronized_flush", "disabled", "romio_visibility_immediate", "true", NULL};

/* N opens of distinct files with the same hints, timed whole (after a barrier, until a barrier
 * after the last close). */
static int opens(const char *dir, int n) {
    MPI_Info info = make(BENCH_HINTS);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        char name[64];
        MPI_File fh;
        snprintf(name, sizeof name, "opens%d.dat", i);
        MPI_File_open(MPI_COMM_WORLD, file_in(dir, name), MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, info, &fh);
        MPI_File_close(&fh);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0;
    if (rank == 0) printf("opens: %d opens in %.3f s\n", n, t);
    MPI_Info_free(&info);
    return 0;
}

static int bench(const char *dir, int n) {
    MPI_Info info = make(BENCH_HINTS);
    MPI_File fh;
    const char *name = file_in(dir, "bench.dat");
    double *tool = malloc(sizeof(double) * (size_t)n), *direct = malloc(sizeof(double) * (size_t)n);
    double *reduce = malloc(sizeof(double) * (size_t)n);
    uint64_t in[2] = {1, 2}, out[2];
    for (int i = 0; i < 10; i++) {
        MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
        MPI_File_close(&fh);
    }
    for (int i = 0; i < n; i++) {
        double t0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
        MPI_File_close(&fh);
        tool[i] = MPI_Wtime() - t0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        PMPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
        PMPI_File_close(&fh);
        direct[i] = MPI_Wtime() - t0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
        reduce[i] = MPI_Wtime() - t0;
    }
    /* The difference of each adjacent pair: the two ran under the same conditions. */
    double *diff = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) diff[i] = tool[i] - direct[i];
    double p = median_max(diff, n);
    double t = median_max(tool, n), d = median_max(direct, n), a = median_max(reduce, n);
    if (rank == 0)
        printf("bench: open+close %.1f us, direct %.1f us, paired difference %.1f us, allreduce %.1f us\n",
               t * 1e6, d * 1e6, p * 1e6, a * 1e6);
    free(diff);
    free(tool); free(direct); free(reduce);
    MPI_Info_free(&info);
    return 0;
}

int main(int argc, char **argv) {
    int status = 2, provided;
    if (argc >= 2 && strcmp(argv[1], "threads") == 0) MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc >= 3 && strcmp(argv[1], "codes") == 0) status = codes(argv[2]);
    else if (argc >= 3 && strcmp(argv[1], "disagree") == 0) status = disagree(argv[2]);
    else if (argc >= 3 && strcmp(argv[1], "hang") == 0) status = hang(argv[2]);
    else if (argc >= 3 && strcmp(argv[1], "long") == 0) status = long_key(argv[2]);
    else if (argc >= 3 && strcmp(argv[1], "repeat") == 0) status = repeat(argv[2]);
    else if (argc >= 3 && strcmp(argv[1], "windows") == 0) status = windows();
    else if (argc >= 3 && strcmp(argv[1], "threads") == 0) status = threads(argv[2]);
    else if (argc >= 3 && strcmp(argv[1], "plain") == 0) status = plain(argv[2]);
    else if (argc >= 4 && strcmp(argv[1], "many") == 0) status = many(argv[2], atoi(argv[3]));
    else if (argc >= 4 && strcmp(argv[1], "die") == 0) status = die(argv[2], atoi(argv[3]));
    else if (argc >= 3 && strcmp(argv[1], "longkey") == 0) status = longkey(argv[2]);
    else if (argc >= 3 && strcmp(argv[1], "controls") == 0) status = controls(argv[2]);
    else if (argc >= 3 && strcmp(argv[1], "fail") == 0) status = fail(argv[2]);
    else if (argc >= 3 && strcmp(argv[1], "redisagree") == 0) status = redisagree();
    else if (argc >= 3 && strcmp(argv[1], "fork") == 0) status = forked(argv[2]);
    else if (argc >= 4 && strcmp(argv[1], "opens") == 0) status = opens(argv[2], atoi(argv[3]));
    else if (argc >= 4 && strcmp(argv[1], "bench") == 0) status = bench(argv[2], atoi(argv[3]));
    else if (rank == 0)
        fprintf(stderr, "usage: hintjob codes|disagree|hang|long|repeat|threads|windows|plain|longkey|controls|fail|redisagree|fork DIR | many|die|opens|bench DIR N\n");
    MPI_Finalize();
    return status;
}
