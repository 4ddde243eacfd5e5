/* info_bench.c - MPI_Info operations timed through the public API only.
 *
 * The same file builds against this library (cc -Iinclude ... -lmpi_info), its standard ABI
 * build (cc -DBENCH_ABI -Iinclude ... -lmpi_info_abi: pointer handles), MPICH
 * (mpicc.mpich -DBENCH_WITH_MPI) and Open MPI (mpicc.openmpi -DBENCH_WITH_MPI), so all four
 * run the same code. benches/compare.py runs them and prints the side-by-side table.
 *
 * Modes:
 *   info_bench                 every case; one line per result: "case<TAB>keys<TAB>ns_per_op"
 *   info_bench count CASE KEYS N
 *                              exactly N operations of one case after its setup (for
 *                              instruction counts under callgrind: run with two N and subtract)
 *   info_bench time CASE KEYS  the time of one case, as in the full run (for quick comparisons)
 *   info_bench memory PAIRS    bytes of heap per pair, one object holding PAIRS pairs
 * Environment: BENCH_KEYS=short (default) or prefixed, the key shape (below); BENCH_SECONDS,
 * the least time of one measurement (0.2 s); BENCH_CASES, a comma-separated list of the cases
 * the full run makes (all by default). */
#define _GNU_SOURCE 1
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef BENCH_WITH_MPI
#include <mpi.h>
#elif defined(BENCH_ABI)
#include "mpi_info_abi.h"
#else
#include "mpi_info.h"
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what, int rc) {
    fprintf(stderr, "info_bench: %s failed with %d\n", what, rc);
    exit(2);
}

#define OK(call)                                \
    do {                                        \
        int rc_ = (call);                       \
        if (rc_ != MPI_SUCCESS) die(#call, rc_); \
    } while (0)

/* Two key shapes (BENCH_KEYS): "short" (the default), keys "hint_NNNNNN" that differ early,
 * looked up in the order they were set; "prefixed", 20-character keys sharing a 15-character
 * prefix, "romio_hint_key_NNNNN", as real hint names share theirs (romio_cb_read,
 * romio_cb_write, romio_ds_read, ...), looked up in a fixed shuffled order. Values are
 * "value_NNNNNN_with_some_length": realistic hint sizes. The typed-read cases fill their
 * objects with integers ("16777216" and the like) or booleans instead (fill_values). */
#define KEYLEN 24
#define VALLEN 40
static int prefixed;
static char (*keys)[KEYLEN];
static char (*values)[VALLEN];
static char (*int_values)[VALLEN];
static char (*bool_values)[VALLEN];
static char (*fill_values)[VALLEN];

static void make_names(int n) {
    keys = malloc((size_t)n * KEYLEN);
    values = malloc((size_t)n * VALLEN);
    int_values = malloc((size_t)n * VALLEN);
    bool_values = malloc((size_t)n * VALLEN);
    if (!keys || !values || !int_values || !bool_values) die("malloc", 0);
    for (int i = 0; i < n; i++) {
        if (prefixed)
            snprintf(keys[i], KEYLEN, "romio_hint_key_%05d", i % 100000);
        else
            snprintf(keys[i], KEYLEN, "hint_%06d", i);
        snprintf(values[i], VALLEN, "value_%06d_with_some_length", i);
        snprintf(int_values[i], VALLEN, "%d", 16777216 + i);
        snprintf(bool_values[i], VALLEN, "%s", i % 2 ? "true" : "false");
    }
    fill_values = values;
}

/* The order the cases look keys up in: visit[k] is the k-th key looked up. The keys as they
 * were set for the short shape; a shuffle of them, the same in every run, for the prefixed one. */
static int *visit, visit_room;

static void make_visit(int nkeys) {
    if (nkeys > visit_room) {
        free(visit);
        visit = malloc((size_t)nkeys * sizeof *visit);
        if (!visit) die("malloc", 0);
        visit_room = nkeys;
    }
    for (int i = 0; i < nkeys; i++) visit[i] = i;
    unsigned long long state = 0x9E3779B97F4A7C15ull;
    for (int i = nkeys - 1; prefixed && i > 0; i--) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((state >> 33) % (unsigned long long)(i + 1));
        int t = visit[i];
        visit[i] = visit[j];
        visit[j] = t;
    }
}

static MPI_Info filled(int nkeys) {
    MPI_Info info;
    OK(MPI_Info_create(&info));
    for (int i = 0; i < nkeys; i++) OK(MPI_Info_set(info, keys[i], fill_values[i]));
    make_visit(nkeys);
    return info;
}

/* One case: runs `ops` operations on an object of `nkeys` pairs. */
typedef long (*case_fn)(MPI_Info info, int nkeys, long ops);

/* Each case returns a sum of what it read, stored here once so the compiler cannot drop the
 * calls; a per-operation store to a shared variable would make threads fight over it. */
static volatile long sink;

static long op_get_hit(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    char value[VALLEN];
    int flag, k = 0;
    for (long i = 0; i < ops; i++) {
        OK(MPI_Info_get(info, keys[visit[k]], VALLEN - 1, value, &flag));
        sum += flag;
        if (++k == nkeys) k = 0;
    }
    return sum;
}

static long op_get_miss(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    char value[VALLEN];
    int flag;
    (void)nkeys;
    for (long i = 0; i < ops; i++) {
        OK(MPI_Info_get(info, "no_such_hint", VALLEN - 1, value, &flag));
        sum += flag;
    }
    return sum;
}

static long op_get_valuelen(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    int len, flag, k = 0;
    for (long i = 0; i < ops; i++) {
        OK(MPI_Info_get_valuelen(info, keys[visit[k]], &len, &flag));
        sum += len;
        if (++k == nkeys) k = 0;
    }
    return sum;
}

/* MPI_Info_get_string is MPI-4; an older MPI (Open MPI 4.1) does not have it. */
#if !defined(BENCH_WITH_MPI) || MPI_VERSION >= 4
#define HAVE_GET_STRING 1
static long op_get_string(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    char value[VALLEN];
    int flag, k = 0;
    for (long i = 0; i < ops; i++) {
        int buflen = VALLEN;
        OK(MPI_Info_get_string(info, keys[visit[k]], &buflen, value, &flag));
        sum += buflen;
        if (++k == nkeys) k = 0;
    }
    return sum;
}
#endif

static long op_set_overwrite(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    int k = 0;
    for (long i = 0; i < ops; i++) {
        OK(MPI_Info_set(info, keys[visit[k]], values[nkeys - 1 - visit[k]]));
        if (++k == nkeys) k = 0;
    }
    return sum;
}

static long op_nthkey_get(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    char key[KEYLEN + 1], value[VALLEN];
    int flag, n = 0;
    for (long i = 0; i < ops; i++) {
        OK(MPI_Info_get_nthkey(info, n, key));
        OK(MPI_Info_get(info, key, VALLEN - 1, value, &flag));
        sum += flag;
        if (++n == nkeys) n = 0;
    }
    return sum;
}

/* get_nthkey alone, n cycling over the keys: the call the goals name, without the get that
 * nthkey_get adds. */
static long op_nthkey(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    char key[KEYLEN + 1];
    int n = 0;
    for (long i = 0; i < ops; i++) {
        OK(MPI_Info_get_nthkey(info, n, key));
        sum += key[0];
        if (++n == nkeys) n = 0;
    }
    return sum;
}

static long op_dup_free(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    (void)nkeys;
    for (long i = 0; i < ops; i++) {
        MPI_Info copy;
        OK(MPI_Info_dup(info, &copy));
        OK(MPI_Info_free(&copy));
    }
    return sum;
}

/* Deletes a key from the middle and sets it again (it goes to the end): the cost of delete
 * with the numbering of docs/reference.md, "Order". */
static long op_delete_set(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    int k = nkeys / 2;
    for (long i = 0; i < ops; i++) {
        OK(MPI_Info_delete(info, keys[visit[k]]));
        OK(MPI_Info_set(info, keys[visit[k]], values[visit[k]]));
        if (++k == nkeys) k = 0;
    }
    return sum;
}

/* ---- the MPIX_ toolkit. MPICH and Open MPI have no MPIX_ calls, so their builds do the same
 * work by hand: a get and a parse (strtol, string compares) for a typed read, get_nthkey, get
 * and set for a merge. get_parse_int is that get and parse in every build, for comparison. */

/* What a layered library writes by hand for an int hint: 1 and *out if s is a whole decimal
 * int (strtol also skips leading white space). */
static int parse_int(const char *s, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < INT_MIN || v > INT_MAX) return 0;
    *out = (int)v;
    return 1;
}

static long op_get_parse_int(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    char value[VALLEN];
    int flag, v, k = 0;
    for (long i = 0; i < ops; i++) {
        OK(MPI_Info_get(info, keys[visit[k]], VALLEN - 1, value, &flag));
        if (flag && parse_int(value, &v)) sum += v;
        if (++k == nkeys) k = 0;
    }
    return sum;
}

static long op_get_int(MPI_Info info, int nkeys, long ops) {
#ifdef BENCH_WITH_MPI
    return op_get_parse_int(info, nkeys, ops);
#else
    long sum = 0;
    int flag, v, k = 0;
    for (long i = 0; i < ops; i++) {
        OK(MPIX_Info_get_int(info, keys[visit[k]], &v, &flag));
        sum += v;
        if (++k == nkeys) k = 0;
    }
    return sum;
#endif
}

static long op_get_bool(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    int flag, v = 0, k = 0;
    for (long i = 0; i < ops; i++) {
#ifdef BENCH_WITH_MPI
        char value[VALLEN];
        OK(MPI_Info_get(info, keys[visit[k]], VALLEN - 1, value, &flag));
        if (flag) v = strcmp(value, "true") == 0 ? 1 : strcmp(value, "false") == 0 ? 0 : -1;
#else
        OK(MPIX_Info_get_bool(info, keys[visit[k]], &v, &flag));
#endif
        sum += v;
        if (++k == nkeys) k = 0;
    }
    return sum;
}

/* A fresh object gets every pair of the case's object (nothing is there yet, so each is set):
 * create, merge, free. */
static long op_merge(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    for (long i = 0; i < ops; i++) {
        MPI_Info target;
        OK(MPI_Info_create(&target));
#ifdef BENCH_WITH_MPI
        char key[MPI_MAX_INFO_KEY + 1], value[VALLEN];
        for (int n = 0; n < nkeys; n++) {
            int flag;
            OK(MPI_Info_get_nthkey(info, n, key));
            OK(MPI_Info_get(info, key, VALLEN - 1, value, &flag));
            OK(MPI_Info_get_valuelen(target, key, &flag, &flag));
            if (!flag) OK(MPI_Info_set(target, key, value));
        }
#else
        OK(MPIX_Info_merge(target, info, 0));
#endif
        OK(MPI_Info_free(&target));
    }
    (void)nkeys;
    return sum;
}

static long op_create_free(MPI_Info info, int nkeys, long ops) {
    long sum = 0;
    (void)info;
    (void)nkeys;
    for (long i = 0; i < ops; i++) {
        MPI_Info fresh;
        OK(MPI_Info_create(&fresh));
        OK(MPI_Info_free(&fresh));
    }
    return sum;
}

static const struct {
    const char *name;
    case_fn fn;
    int per_key; /* 1: sized by the number of keys; 0: run once with 0 keys */
} cases[] = {
    {"get_hit", op_get_hit, 1},
    {"get_miss", op_get_miss, 1},
    {"get_valuelen", op_get_valuelen, 1},
#ifdef HAVE_GET_STRING
    {"get_string", op_get_string, 1},
#endif
    {"set_overwrite", op_set_overwrite, 1},
    {"nthkey", op_nthkey, 1},
    {"nthkey_get", op_nthkey_get, 1},
    {"dup_free", op_dup_free, 1},
    {"delete_set", op_delete_set, 1},
    {"create_free", op_create_free, 0},
    {"get_int", op_get_int, 1},
    {"get_parse_int", op_get_parse_int, 1},
    {"get_bool", op_get_bool, 1},
    {"merge", op_merge, 1},
};

/* The values case c's object holds: integers or booleans for the typed reads, text otherwise. */
static void use_values(int c) {
    case_fn fn = cases[c].fn;
    fill_values = fn == op_get_bool ? bool_values : fn == op_get_int || fn == op_get_parse_int ? int_values : values;
}
#define NCASES (int)(sizeof cases / sizeof cases[0])
static const int sizes[] = {1, 16, 256, 4096};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

/* Doubles the operation count until one run takes at least `min_seconds`, then reports the
 * best of three runs of that length. */
static double time_case(case_fn fn, int nkeys, double min_seconds) {
    MPI_Info info = filled(nkeys);
    long ops = 1;
    double elapsed;
    for (;;) {
        double t0 = now();
        sink = fn(info, nkeys, ops);
        elapsed = now() - t0;
        if (elapsed >= min_seconds) break;
        ops *= elapsed < min_seconds / 16 ? 8 : 2;
    }
    double best = elapsed / (double)ops;
    for (int r = 0; r < 2; r++) {
        double t0 = now();
        sink = fn(info, nkeys, ops);
        double per = (now() - t0) / (double)ops;
        if (per < best) best = per;
    }
    OK(MPI_Info_free(&info));
    return best * 1e9;
}

/* Threads: each thread reads its own 16-key object; total operations per second. */
struct worker {
    MPI_Info info;
    long ops;
    long sum;
    pthread_barrier_t *start;
    char pad[64]; /* keeps workers' results off each other's cache lines */
};

static void *worker_main(void *arg) {
    struct worker *w = arg;
    pthread_barrier_wait(w->start);
    w->sum = op_get_hit(w->info, 16, w->ops);
    return NULL;
}

static double threads_mops(int nthreads, long ops_per_thread) {
    pthread_t tid[8];
    struct worker w[8];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
    for (int t = 0; t < nthreads; t++) {
        w[t].info = filled(16);
        w[t].ops = ops_per_thread;
        w[t].start = &start;
        pthread_create(&tid[t], NULL, worker_main, &w[t]);
    }
    double t0 = now();
    pthread_barrier_wait(&start);
    for (int t = 0; t < nthreads; t++) {
        pthread_join(tid[t], NULL);
        sink = w[t].sum;
    }
    double elapsed = now() - t0;
    for (int t = 0; t < nthreads; t++) OK(MPI_Info_free(&w[t].info));
    pthread_barrier_destroy(&start);
    return (double)nthreads * (double)ops_per_thread / elapsed / 1e6;
}

/* Heap bytes in use (glibc), including large blocks served by mmap. */
static double heap_in_use(void) {
    struct mallinfo2 m = mallinfo2();
    return (double)m.uordblks + (double)m.hblkhd;
}

static int run_memory(int pairs) {
    make_names(0);
    char key[KEYLEN], value[VALLEN];
    double before = heap_in_use();
    MPI_Info info;
    OK(MPI_Info_create(&info));
    double payload = 0;
    for (int i = 0; i < pairs; i++) {
        int kl = snprintf(key, sizeof key, "hint_%06d", i);
        int vl = snprintf(value, sizeof value, "value_%06d_with_some_length", i);
        payload += kl + vl;
        OK(MPI_Info_set(info, key, value));
    }
    double used = heap_in_use() - before;
    printf("memory\t%d\t%.1f\t%.1f\n", pairs, used / pairs, (used - payload) / pairs);
    OK(MPI_Info_free(&info));
    return 0;
}

static int find_case(const char *name) {
    for (int c = 0; c < NCASES; c++)
        if (strcmp(cases[c].name, name) == 0) return c;
    fprintf(stderr, "info_bench: no case %s\n", name);
    exit(2);
}

static double min_seconds(void) {
    const char *env = getenv("BENCH_SECONDS");
    return env ? atof(env) : 0.05;
}

static int run_time(const char *name, int nkeys) {
    make_names(nkeys > 0 ? nkeys : 1);
    int c = find_case(name);
    use_values(c);
    printf("%s\t%d\t%.1f\n", name, nkeys, time_case(cases[c].fn, nkeys, min_seconds()));
    return 0;
}

static int run_count(const char *name, int nkeys, long ops) {
    make_names(nkeys > 0 ? nkeys : 1);
    int c = find_case(name);
    use_values(c);
    MPI_Info info = filled(nkeys);
    sink = cases[c].fn(info, nkeys, ops);
    OK(MPI_Info_free(&info));
    return 0;
}

/* Whether the full run makes the case `name`: BENCH_CASES names it, or is not set. */
static int wanted(const char *name) {
    const char *list = getenv("BENCH_CASES");
    size_t len = strlen(name);
    for (const char *at = list; at && *at; at += strcspn(at, ",") + (at[strcspn(at, ",")] != '\0'))
        if (strncmp(at, name, len) == 0 && (at[len] == ',' || at[len] == '\0')) return 1;
    return list == NULL;
}

int main(int argc, char **argv) {
    const char *shape = getenv("BENCH_KEYS");
    prefixed = shape && strcmp(shape, "prefixed") == 0;
#ifdef BENCH_WITH_MPI
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
#endif
    int rc = 0;
    if (argc == 5 && strcmp(argv[1], "count") == 0) {
        rc = run_count(argv[2], atoi(argv[3]), atol(argv[4]));
    } else if (argc == 4 && strcmp(argv[1], "time") == 0) {
        rc = run_time(argv[2], atoi(argv[3]));
    } else if (argc == 3 && strcmp(argv[1], "memory") == 0) {
        rc = run_memory(atoi(argv[2]));
    } else {
        make_names(sizes[NSIZES - 1]);
        for (int c = 0; c < NCASES; c++) {
            if (!wanted(cases[c].name)) continue;
            use_values(c);
            for (int s = 0; s < NSIZES; s++) {
                int nkeys = cases[c].per_key ? sizes[s] : 0;
                printf("%s\t%d\t%.1f\n", cases[c].name, nkeys, time_case(cases[c].fn, nkeys, min_seconds()));
                fflush(stdout);
                if (!cases[c].per_key) break;
            }
        }
        fill_values = values;
        long per_thread = 4000000;
        const char *scale = getenv("BENCH_THREAD_OPS");
        if (scale) per_thread = atol(scale);
        /* Best of three, like the other cases: a busy moment on a shared machine only lowers
         * a single run. */
        for (int t = 1; t <= 4 && wanted("threads_get_mops"); t *= 2) {
            double best = 0;
            for (int r = 0; r < 3; r++) {
                double mops = threads_mops(t, per_thread);
                if (mops > best) best = mops;
            }
            printf("threads_get_mops\t%d\t%.2f\n", t, best);
        }
    }
#ifdef BENCH_WITH_MPI
    MPI_Finalize();
#endif
    return rc;
}
