/* unload.c - the shared library loaded as a plugin host, a profiling-tool stack or a language
 * runtime loads it: with dlopen, used from several threads, closed with dlclose while those
 * threads are still alive, then opened again.
 *
 * Usage: unload [/path/to/libmpi_info.so]  (default: UNLOAD_LIBRARY, set by the Makefile)
 *
 *  1. dlopen; four threads make a few thousand calls each (set/get on their own object and
 *     on a shared one); dlclose while the threads are still alive; the threads exit (a
 *     thread-exit destructor pointing into an unmapped library would crash here); dlopen
 *     again: the library stayed loaded, the objects made before are still there with their
 *     pairs, and new calls work; threads use it again; dlclose.
 *  2. Two instances in one process: a copy of the library under another path, opened with
 *     RTLD_LOCAL beside the first. Each has its own objects (a handle value names different
 *     objects in each), both work from several threads at once, and a fork with both loaded
 *     gives a child that can use both.
 *
 * Under valgrind (make valgrind) no byte may be lost: every object is freed. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The library is opened with dlopen, never linked: no link check (README.md, "Standard ABI"). */
#define MPI_INFO_NO_LINK_CHECK 1
#include "check.h"

/* The calls this test makes, looked up in one loaded instance. */
typedef struct {
    void *handle;
    int (*create)(MPI_Info *);
    int (*set)(MPI_Info, const char *, const char *);
    int (*get)(MPI_Info, const char *, int, char *, int *);
    int (*nkeys)(MPI_Info, int *);
    int (*free_)(MPI_Info *);
} library;

static void *symbol(void *handle, const char *name) {
    void *found = dlsym(handle, name);
    if (!found) {
        fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
        exit(2);
    }
    return found;
}

static library open_library(const char *path) {
    library lib;
    lib.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        exit(2);
    }
    *(void **)&lib.create = symbol(lib.handle, "MPI_Info_create");
    *(void **)&lib.set = symbol(lib.handle, "MPI_Info_set");
    *(void **)&lib.get = symbol(lib.handle, "MPI_Info_get");
    *(void **)&lib.nkeys = symbol(lib.handle, "MPI_Info_get_nkeys");
    *(void **)&lib.free_ = symbol(lib.handle, "MPI_Info_free");
    return lib;
}

/* The value object `o` holds for key `key` when written by thread `t`. */
static void value_for(int t, int key, char *out) { snprintf(out, 64, "thread %d key %d", t, key); }

/* ---- threads that use one or two instances, then wait to be told to exit ------------- */

#define THREADS 4
#define CALLS 4000

typedef struct {
    const library *libs[2];
    int nlibs;
    int index;
    MPI_Info shared[2];
    MPI_Info own[2];
    int failures;
    pthread_barrier_t *used, *may_exit;
} worker;

static void *work(void *arg) {
    worker *w = (worker *)arg;
    char key[32], value[64], got[MPI_MAX_INFO_VAL];
    int flag;
    for (int l = 0; l < w->nlibs; l++) {
        const library *lib = w->libs[l];
        if (lib->create(&w->own[l]) != MPI_SUCCESS) w->failures++;
        for (int i = 0; i < CALLS; i++) {
            snprintf(key, sizeof key, "k%d", i % 16);
            value_for(w->index, i % 16, value);
            if (lib->set(w->own[l], key, value) != MPI_SUCCESS) w->failures++;
            if (lib->get(w->own[l], key, MPI_MAX_INFO_VAL - 1, got, &flag) != MPI_SUCCESS || !flag ||
                strcmp(got, value) != 0)
                w->failures++;
            if (lib->get(w->shared[l], "common", MPI_MAX_INFO_VAL - 1, got, &flag) != MPI_SUCCESS ||
                !flag || strcmp(got, l == 0 ? "first" : "second") != 0)
                w->failures++;
        }
    }
    pthread_barrier_wait(w->used);
    /* The main thread closes the library here; this thread then exits. */
    pthread_barrier_wait(w->may_exit);
    return NULL;
}

/* Runs THREADS workers over the given instances, calls between_close(ctx) once they have
 * made their calls and before they exit, and checks each worker's own objects. */
static void run_workers(const library *libs[], int nlibs, const MPI_Info shared[],
                        void (*between)(void *), void *ctx, MPI_Info own[][2]) {
    pthread_t threads[THREADS];
    worker workers[THREADS];
    pthread_barrier_t used, may_exit;
    pthread_barrier_init(&used, NULL, THREADS + 1);
    pthread_barrier_init(&may_exit, NULL, THREADS + 1);
    for (int t = 0; t < THREADS; t++) {
        memset(&workers[t], 0, sizeof workers[t]);
        workers[t].nlibs = nlibs;
        workers[t].index = t;
        for (int l = 0; l < nlibs; l++) {
            workers[t].libs[l] = libs[l];
            workers[t].shared[l] = shared[l];
        }
        workers[t].used = &used;
        workers[t].may_exit = &may_exit;
        if (pthread_create(&threads[t], NULL, work, &workers[t]) != 0) exit(2);
    }
    pthread_barrier_wait(&used);
    between(ctx);
    pthread_barrier_wait(&may_exit);
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK(workers[t].failures == 0);
        for (int l = 0; l < nlibs; l++) own[t][l] = workers[t].own[l];
    }
    pthread_barrier_destroy(&used);
    pthread_barrier_destroy(&may_exit);
}

static void close_library(void *lib) { CHECK(dlclose(((library *)lib)->handle) == 0); }
static void nothing(void *ctx) { (void)ctx; }

/* Checks that object `info` of `lib` holds thread t's 16 pairs, then frees it. */
static void check_own_and_free(const library *lib, MPI_Info info, int t) {
    char key[32], value[64], got[MPI_MAX_INFO_VAL];
    int flag = 0, n = -1;
    CHECK_RC(lib->nkeys(info, &n), MPI_SUCCESS);
    CHECK(n == 16);
    for (int i = 0; i < 16; i++) {
        snprintf(key, sizeof key, "k%d", i);
        value_for(t, i, value);
        CHECK_RC(lib->get(info, key, MPI_MAX_INFO_VAL - 1, got, &flag), MPI_SUCCESS);
        CHECK(flag == 1 && strcmp(got, value) == 0);
    }
    CHECK_RC(lib->free_(&info), MPI_SUCCESS);
}

/* ---- 1. close while threads live, open again ------------------------------------------ */

static void close_and_reopen(const char *path) {
    library lib = open_library(path);
    MPI_Info shared;
    CHECK_RC(lib.create(&shared), MPI_SUCCESS);
    CHECK_RC(lib.set(shared, "common", "first"), MPI_SUCCESS);
    const library *libs[1] = {&lib};
    MPI_Info own[THREADS][2];
    run_workers(libs, 1, &shared, close_library, &lib, own);
    /* Every thread that used the library has exited after the dlclose. */

    library again = open_library(path);
    /* The library was never unmapped (it pins itself), so this is the same instance. */
    CHECK(again.create == lib.create);
    void *still = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    CHECK(still != NULL);
    if (still) dlclose(still);
    char got[MPI_MAX_INFO_VAL];
    int flag = 0;
    CHECK_RC(again.get(shared, "common", MPI_MAX_INFO_VAL - 1, got, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(got, "first") == 0);
    for (int t = 0; t < THREADS; t++) check_own_and_free(&again, own[t][0], t);

    /* Threads use it again after the reopen, and exit after a second dlclose. */
    const library *libs_again[1] = {&again};
    run_workers(libs_again, 1, &shared, close_library, &again, own);
    library third = open_library(path);
    for (int t = 0; t < THREADS; t++) check_own_and_free(&third, own[t][0], t);
    CHECK_RC(third.free_(&shared), MPI_SUCCESS);
    CHECK(shared == MPI_INFO_NULL);
    CHECK(dlclose(third.handle) == 0);
}

/* ---- 2. two instances ------------------------------------------------------------------ */

/* Copies the file at `from` to `to`; exits with 2 on failure. */
static void copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    if (!in || !out) {
        perror("copy");
        exit(2);
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) exit(2);
    fclose(in);
    if (fclose(out) != 0) exit(2);
}

static void two_instances(const char *path) {
    char dir[] = "/tmp/mpi_info_unload_XXXXXX";
    if (!mkdtemp(dir)) exit(2);
    char copy[sizeof dir + 32];
    snprintf(copy, sizeof copy, "%s/libmpi_info_copy.so", dir);
    copy_file(path, copy);

    library a = open_library(path), b = open_library(copy);
    CHECK(a.create != b.create);
    MPI_Info in_a, in_b;
    CHECK_RC(a.create(&in_a), MPI_SUCCESS);
    CHECK_RC(b.create(&in_b), MPI_SUCCESS);
    CHECK_RC(a.set(in_a, "common", "first"), MPI_SUCCESS);
    CHECK_RC(b.set(in_b, "common", "second"), MPI_SUCCESS);
    /* Each instance hands out handles from its own table, so the first values coincide
     * here (this process made no other object in the copy) and name different objects. */
    char got[MPI_MAX_INFO_VAL];
    int flag = 0;
    CHECK_RC(a.get(in_a, "common", MPI_MAX_INFO_VAL - 1, got, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(got, "first") == 0);
    CHECK_RC(b.get(in_b, "common", MPI_MAX_INFO_VAL - 1, got, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(got, "second") == 0);

    const library *libs[2] = {&a, &b};
    MPI_Info shared[2] = {in_a, in_b};
    MPI_Info own[THREADS][2];
    run_workers(libs, 2, shared, nothing, NULL, own);

    /* A fork with both loaded: the child uses both. */
    pid_t pid = fork();
    if (pid == 0) {
        int ok = a.get(in_a, "common", MPI_MAX_INFO_VAL - 1, got, &flag) == MPI_SUCCESS && flag &&
                 strcmp(got, "first") == 0 &&
                 b.get(in_b, "common", MPI_MAX_INFO_VAL - 1, got, &flag) == MPI_SUCCESS && flag &&
                 strcmp(got, "second") == 0 && b.set(in_b, "child", "yes") == MPI_SUCCESS &&
                 a.free_(&in_a) == MPI_SUCCESS;
        _exit(ok ? 0 : 1);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);

    for (int t = 0; t < THREADS; t++) {
        check_own_and_free(&a, own[t][0], t);
        check_own_and_free(&b, own[t][1], t);
    }
    CHECK_RC(a.free_(&in_a), MPI_SUCCESS);
    CHECK_RC(b.free_(&in_b), MPI_SUCCESS);
    CHECK(dlclose(a.handle) == 0);
    CHECK(dlclose(b.handle) == 0);
    unlink(copy);
    rmdir(dir);
}

int main(int argc, char **argv) {
    check_start(argv[0]);
    const char *path = argc > 1 ? argv[1] : UNLOAD_LIBRARY;
    close_and_reopen(path);
    two_instances(path);
    return check_report();
}
