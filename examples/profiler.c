/* profiler.c - a profiling tool for mpi-info, written the way MPI profiling tools are.
 *
 * Every MPI_Info_ function of the library has a twin named PMPI_Info_ (docs/reference.md,
 * "Profiling names"). A tool defines its own MPI_Info_xxx, does its bookkeeping and calls
 * PMPI_Info_xxx to do the real work. The program keeps calling MPI_Info_xxx as before and never
 * knows. This tool counts the calls to each function, how many returned an error, and the time they
 * took, and prints a table when the program exits.
 *
 * Two ways to use this file:
 *
 * 1. As a demo (the default): a small main() at the end makes a few calls.
 *
 *        cc -std=c99 -Iinclude examples/profiler.c -o profiler -Lbuild/lib -lmpi_info
 *        ./profiler            (`make c-tests` builds it as build/examples/profiler)
 *
 *    -DPROFILER_DEMO also selects the demo, whatever else is defined.
 *
 * 2. As a tool for your own program: define PROFILER_AS_TOOL, which leaves main() out, and
 *    put the tool ahead of the library when linking.
 *
 *      shared:  cc -std=c99 -O2 -Iinclude -DPROFILER_AS_TOOL -fPIC -shared \
 *                  examples/profiler.c -o libprofiler.so -Lbuild/lib -lmpi_info
 *               cc app.c -o app -L. -lprofiler -Lbuild/lib -lmpi_info    (tool first)
 *               or, for a program already linked with libmpi_info.so, without relinking:
 *               LD_PRELOAD=./libprofiler.so ./app
 *
 *      static:  cc -std=c99 -O2 -Iinclude -DPROFILER_AS_TOOL -c examples/profiler.c -o profiler.o
 *               cc app.c profiler.o build/lib/libmpi_info.a -lpthread -ldl -lm -lrt -lutil
 *               (this works because the MPI_ names in libmpi_info.a are weak: the linker
 *               takes the tool's MPI_Info_xxx and the library's PMPI_Info_xxx.)
 *
 * The counters are updated atomically, so the tool is as thread-safe as the library. The
 * table goes to stderr, so it does not mix with the program's own output. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime with -std=c99 */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mpi_info.h"

/* ---- bookkeeping -------------------------------------------------------------------- */

/* One row of the table per function the tool wraps. */
enum {
    F_CREATE, F_SET, F_DELETE, F_GET, F_GET_VALUELEN, F_GET_STRING, F_GET_NKEYS,
    F_GET_NTHKEY, F_DUP, F_FREE, F_CREATE_ENV, F_C2F, F_F2C, F_TOINT, F_FROMINT, F_COUNT
};

static const char *const names[F_COUNT] = {
    "MPI_Info_create",      "MPI_Info_set",        "MPI_Info_delete",
    "MPI_Info_get",         "MPI_Info_get_valuelen", "MPI_Info_get_string",
    "MPI_Info_get_nkeys",   "MPI_Info_get_nthkey", "MPI_Info_dup",
    "MPI_Info_free",        "MPI_Info_create_env", "MPI_Info_c2f",
    "MPI_Info_f2c",         "MPI_Info_toint",      "MPI_Info_fromint",
};

struct stats {
    unsigned long calls;
    unsigned long errors;      /* calls that did not return MPI_SUCCESS */
    unsigned long long nanos;  /* time spent inside the library */
};

static struct stats table[F_COUNT];

/* GCC/Clang atomic builtins: threads may call the library (and so the tool) at once. */
static void add(unsigned long *counter, unsigned long n) {
    __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

static unsigned long long now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Records one call of function f that started at t0 and returned rc; returns rc, so a
 * wrapper can be a single line. */
static int done(int f, unsigned long long t0, int rc) {
    unsigned long long spent = now() - t0;
    add(&table[f].calls, 1);
    if (rc != MPI_SUCCESS) add(&table[f].errors, 1);
    __atomic_fetch_add(&table[f].nanos, spent, __ATOMIC_RELAXED);
    return rc;
}

/* The table, printed once at exit. */
static void print_table(void) {
    unsigned long calls = 0, errors = 0;
    fprintf(stderr, "\nmpi-info profile\n");
    fprintf(stderr, "%-24s %10s %8s %12s\n", "function", "calls", "errors", "time (us)");
    for (int f = 0; f < F_COUNT; f++) {
        unsigned long c = __atomic_load_n(&table[f].calls, __ATOMIC_RELAXED);
        unsigned long e = __atomic_load_n(&table[f].errors, __ATOMIC_RELAXED);
        unsigned long long ns = __atomic_load_n(&table[f].nanos, __ATOMIC_RELAXED);
        if (c == 0) continue; /* only what the program used */
        fprintf(stderr, "%-24s %10lu %8lu %12.1f\n", names[f], c, e, (double)ns / 1000.0);
        calls += c;
        errors += e;
    }
    fprintf(stderr, "%-24s %10lu %8lu\n", "total", calls, errors);
}

/* Runs when the tool is loaded (shared) or the program starts (static), before main(). */
__attribute__((constructor)) static void profiler_init(void) { atexit(print_table); }

/* ---- the wrappers: count, then let the PMPI_ twin do the work ------------------------ */

int MPI_Info_create(MPI_Info *info) {
    unsigned long long t0 = now();
    return done(F_CREATE, t0, PMPI_Info_create(info));
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value) {
    unsigned long long t0 = now();
    return done(F_SET, t0, PMPI_Info_set(info, key, value));
}

int MPI_Info_delete(MPI_Info info, const char *key) {
    unsigned long long t0 = now();
    return done(F_DELETE, t0, PMPI_Info_delete(info, key));
}

int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag) {
    unsigned long long t0 = now();
    return done(F_GET, t0, PMPI_Info_get(info, key, valuelen, value, flag));
}

int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag) {
    unsigned long long t0 = now();
    return done(F_GET_VALUELEN, t0, PMPI_Info_get_valuelen(info, key, valuelen, flag));
}

int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag) {
    unsigned long long t0 = now();
    return done(F_GET_STRING, t0, PMPI_Info_get_string(info, key, buflen, value, flag));
}

int MPI_Info_get_nkeys(MPI_Info info, int *nkeys) {
    unsigned long long t0 = now();
    return done(F_GET_NKEYS, t0, PMPI_Info_get_nkeys(info, nkeys));
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char *key) {
    unsigned long long t0 = now();
    return done(F_GET_NTHKEY, t0, PMPI_Info_get_nthkey(info, n, key));
}

int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo) {
    unsigned long long t0 = now();
    return done(F_DUP, t0, PMPI_Info_dup(info, newinfo));
}

int MPI_Info_free(MPI_Info *info) {
    unsigned long long t0 = now();
    return done(F_FREE, t0, PMPI_Info_free(info));
}

int MPI_Info_create_env(int argc, char **argv, MPI_Info *info) {
    unsigned long long t0 = now();
    return done(F_CREATE_ENV, t0, PMPI_Info_create_env(argc, argv, info));
}

/* The handle conversions return a handle, not an error class: count them as successes. */
MPI_Fint MPI_Info_c2f(MPI_Info info) {
    unsigned long long t0 = now();
    MPI_Fint result = PMPI_Info_c2f(info);
    done(F_C2F, t0, MPI_SUCCESS);
    return result;
}

MPI_Info MPI_Info_f2c(MPI_Fint info) {
    unsigned long long t0 = now();
    MPI_Info result = PMPI_Info_f2c(info);
    done(F_F2C, t0, MPI_SUCCESS);
    return result;
}

int MPI_Info_toint(MPI_Info info) {
    unsigned long long t0 = now();
    int result = PMPI_Info_toint(info);
    done(F_TOINT, t0, MPI_SUCCESS);
    return result;
}

MPI_Info MPI_Info_fromint(int info) {
    unsigned long long t0 = now();
    MPI_Info result = PMPI_Info_fromint(info);
    done(F_FROMINT, t0, MPI_SUCCESS);
    return result;
}

/* ---- the demo ----------------------------------------------------------------------- */

#if defined(PROFILER_DEMO) || !defined(PROFILER_AS_TOOL)

/* An ordinary program: it calls MPI_Info_xxx and knows nothing of the tool above. */
int main(int argc, char **argv) {
    MPI_Info hints, copy, env;
    char key[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL];
    int nkeys, flag, buflen;

    MPI_Info_create(&hints);
    MPI_Info_set(hints, "cb_buffer_size", "16777216");
    MPI_Info_set(hints, "striping_factor", "4");
    MPI_Info_set(hints, "romio_ds_write", "disable");

    /* Walk the pairs in order. */
    MPI_Info_get_nkeys(hints, &nkeys);
    for (int n = 0; n < nkeys; n++) {
        MPI_Info_get_nthkey(hints, n, key);
        MPI_Info_get(hints, key, MPI_MAX_INFO_VAL - 1, value, &flag);
        printf("%-16s = %s\n", key, value);
    }

    /* A lookup that finds nothing is not an error (flag = 0) ... */
    MPI_Info_get(hints, "no_such_hint", MPI_MAX_INFO_VAL - 1, value, &flag);
    /* ... but deleting a missing key is: the table shows it in the errors column. */
    MPI_Info_delete(hints, "no_such_hint");

    MPI_Info_dup(hints, &copy);
    MPI_Info_delete(copy, "romio_ds_write");
    buflen = 0; /* ask only for the size */
    MPI_Info_get_string(copy, "cb_buffer_size", &buflen, NULL, &flag);
    printf("cb_buffer_size needs a %d-byte buffer\n", buflen);

    /* An object like MPI_INFO_ENV, for this program's own command line. */
    MPI_Info_create_env(argc, argv, &env);
    MPI_Info_get_valuelen(env, "host", &buflen, &flag);
    if (flag) {
        MPI_Info_get(env, "host", MPI_MAX_INFO_VAL - 1, value, &flag);
        printf("running on %s\n", value);
    }
    if (MPI_Info_f2c(MPI_Info_c2f(env)) != env) printf("handle conversion changed the handle\n");

    MPI_Info_free(&env);
    MPI_Info_free(&copy);
    MPI_Info_free(&hints);
    MPI_Info_free(&hints); /* already freed (now MPI_INFO_NULL): one more error */
    return 0; /* the profile is printed by the atexit handler */
}
#endif
