/*
 * libmpi_info_hintcheck: what the MPI did with your hints (docs/hintcheck.md).
 *
 * Built with an MPI's own compiler wrapper (make hintcheck MPICC=...), loaded with LD_PRELOAD or
 * linked ahead of the MPI. Each intercepted MPI_X call is made with the caller's arguments
 * untouched, and its result returned as is. Around it:
 *   - before it, the caller's (key, value) pairs are read through the host MPI's PMPI_Info_*
 *     calls (an MPI may change the caller's object);
 *   - before it too, if the call is collective over more than one process, one PMPI_Allreduce
 *     of a 64-bit digest of the sorted pairs (and of its complement, with MPI_MAX: equal maxima
 *     mean equal digests) on the call's communicator tells whether every process passed the
 *     same hints; only when they did not, a PMPI_Allgather of the lengths and a PMPI_Allgatherv
 *     of the pairs name the keys, values and ranks, printed on standard error at once by the
 *     lowest rank;
 *   - when it succeeded, what the MPI reports afterwards (PMPI_File_get_info,
 *     PMPI_Win_get_info, PMPI_Comm_get_info, PMPI_Session_get_info) is read;
 * and all of it goes to the Rust core (hintcheck/core, linked in as a static archive), which
 * checks the hints with mpi_info::hints, compares, keeps the report and writes the JSON file.
 *
 * The I/O stack above the MPI: the libraries PnetCDF and HDF5 are looked for among the loaded
 * objects at MPI_Init and again whenever that set has changed (dl_iterate_phdr's counters), so
 * that one loaded after MPI_Init is found. Their entry points that take the program's info
 * (ncmpi_create, ncmpi_open, H5Pset_fapl_mpio) are intercepted too, and call the library's own
 * definition (the dynamic linker's next one, or the one in the object found); each MPI call is
 * told which of them made it, from its return address.
 *
 * Nothing here defines an MPI_Info_ or PMPI_Info_ name, and the version script
 * (hintcheck/exports.map) exports only the intercepted names.
 */
#define _GNU_SOURCE     /* dladdr, dl_iterate_phdr, RTLD_NEXT, RTLD_NOLOAD */
#include <dlfcn.h>
#include <link.h>
#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the Rust core (hintcheck/core/src/lib.rs) ---- */
typedef struct HcCall HcCall;
int mpi_info_hintcheck_init(const char *version, const char *target, int world_rank, int world_size);
HcCall *mpi_info_hintcheck_call_begin(const char *call, const char *filename, int comm_size);
void mpi_info_hintcheck_requested(HcCall *c, const char *pairs, size_t len);
void mpi_info_hintcheck_reported(HcCall *c, const char *pairs, size_t len);
void mpi_info_hintcheck_note(HcCall *c, const char *message);
void mpi_info_hintcheck_unread(HcCall *c, int reported, int index, const char *key, int max_key);
int mpi_info_hintcheck_mismatch(HcCall *c, int nranks, const int *world_ranks, const int *lens, const char *buf, int print);
int mpi_info_hintcheck_call_end(HcCall *c);
void mpi_info_hintcheck_counts(long long *out);
void mpi_info_hintcheck_finalize(const long long *totals);
void mpi_info_hintcheck_layer(const char *layer, const char *version, const char *file);
void mpi_info_hintcheck_caller(HcCall *c, const char *layer);
void mpi_info_hintcheck_through(HcCall *inner, const HcCall *outer);

static void look(void);

/* ---- process state ---- */
/* state: UNSET until the core is set up, then CHECKING, then FINALIZED once MPI_Finalize has
 * begun (nothing more is checked). Changed under state_lock; read without it by setup() once it
 * is no longer UNSET (the atomic load pairs with the store that published the fields below). */
enum { UNSET, CHECKING, FINALIZED };
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static int state = UNSET;
static int world_rank, world_size;
static int thread_multiple;     /* provided level is MPI_THREAD_MULTIPLE */
static const char *target = "mpi";

/* Sets up the core once MPI is initialized; returns whether calls are to be checked. */
static int setup(void) {
    int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE), first = 0;
    if (s != UNSET) return s == CHECKING;
    pthread_mutex_lock(&state_lock);
    if (state == UNSET) {
        int inited = 0, fin = 0;
        PMPI_Initialized(&inited);
        PMPI_Finalized(&fin);
        if (inited && !fin) {
            char version[MPI_MAX_LIBRARY_VERSION_STRING + 1];
            int len = 0, provided = MPI_THREAD_SINGLE;
            memset(version, 0, sizeof version);
            PMPI_Get_library_version(version, &len);
            if (strstr(version, "CRAY MPICH") || strstr(version, "Cray MPICH")) target = "cray-mpich";
            else if (strstr(version, "MPICH")) target = "mpich";
            else if (strstr(version, "Open MPI")) target = "openmpi";
            PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
            PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
            PMPI_Query_thread(&provided);
            thread_multiple = provided == MPI_THREAD_MULTIPLE;
            mpi_info_hintcheck_init(version, target, world_rank, world_size);
            Dl_info mpi;
            if (dladdr((void *)PMPI_Init, &mpi) && mpi.dli_fname) mpi_info_hintcheck_layer("mpi", NULL, mpi.dli_fname);
            __atomic_store_n(&state, CHECKING, __ATOMIC_RELEASE);
            first = 1;
        }
    }
    s = state;
    pthread_mutex_unlock(&state_lock);
    if (first) look();
    return s == CHECKING;
}

/* ---- the I/O stack above the MPI ---- */

/* The libraries looked for: each by the function that gives its version. Their fields are
 * changed under stack_lock. */
enum { PNETCDF, HDF5, N_LAYERS };
typedef struct {
    const char *layer;          /* the core's name */
    const char *version_fn;     /* the function that gives its version */
    const char *name_part;      /* a loaded object whose file name holds this is looked into */
    void *base;                 /* the object's load address (dladdr's dli_fbase); NULL: absent */
    char file[4096];            /* its file name */
    void *version;              /* its version function */
    const unsigned char *ready; /* HDF5: H5_libinit_g, true once the library is initialised */
    int versioned;              /* its version was given to the core */
} Layer;
static Layer layers[N_LAYERS] = {
    {"pnetcdf", "ncmpi_inq_libvers", "pnetcdf", NULL, "", NULL, NULL, 0},
    {"hdf5", "H5get_libversion", "hdf5", NULL, "", NULL, NULL, 0},
};
static pthread_mutex_t stack_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long seen_adds, seen_subs;
static int looked;
static int any_layer;           /* some layer is loaded (read without the lock: a hint only) */

/* The loader's counters of objects added and removed (the same in every entry: one is read). */
static int counters(struct dl_phdr_info *info, size_t size, void *data) {
    unsigned long long *c = data;
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
        c[0] = info->dlpi_adds;
        c[1] = info->dlpi_subs;
    }
    return 1;
}

/* The file names of the loaded objects that may hold a layer (collected first: the loader's
 * lock is held during dl_iterate_phdr, and dlopen is called after). */
typedef struct { char names[32][4096]; int n; } Candidates;
static int collect(struct dl_phdr_info *info, size_t size, void *data) {
    Candidates *c = data;
    (void)size;
    if (!info->dlpi_name || !info->dlpi_name[0] || c->n == 32) return 0;
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    for (int i = 0; i < N_LAYERS; i++)
        if (strstr(base, layers[i].name_part) && strlen(info->dlpi_name) < sizeof c->names[0]) {
            strcpy(c->names[c->n++], info->dlpi_name);
            break;
        }
    return 0;
}

/* The address of `symbol` in a loaded object named `file` (NULL: the global scope), without
 * loading anything: RTLD_NOLOAD, and the handle closed again. */
static void *symbol_in(const char *file, const char *symbol) {
    if (!file) return dlsym(RTLD_DEFAULT, symbol);
    void *h = dlopen(file, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) return NULL;
    void *s = dlsym(h, symbol);
    dlclose(h);
    return s;
}

/* Gives the core a layer's version, when it can be had without changing the library's state:
 * PnetCDF's ncmpi_inq_libvers returns a constant string; HDF5's H5get_libversion initialises
 * the library if the program has not, so it is asked only once the program has (H5_libinit_g,
 * or from within H5Pset_fapl_mpio). Under stack_lock. */
static void give_version(Layer *l, int hdf5_ready) {
    char version[64] = "";
    if (l->versioned || !l->base || !l->version) return;
    if (l == &layers[PNETCDF]) {
        const char *(*libvers)(void) = (const char *(*)(void))l->version;
        const char *v = libvers();
        if (v) snprintf(version, sizeof version, "%s", v);
    } else {
        if (!hdf5_ready && !(l->ready && *l->ready)) return;
        unsigned maj = 0, min = 0, rel = 0;
        int (*libversion)(unsigned *, unsigned *, unsigned *) = (int (*)(unsigned *, unsigned *, unsigned *))l->version;
        if (libversion(&maj, &min, &rel) < 0) return;
        snprintf(version, sizeof version, "%u.%u.%u", maj, min, rel);
    }
    l->versioned = 1;
    mpi_info_hintcheck_layer(l->layer, version[0] ? version : NULL, l->file);
}

/* Looks at the loaded objects again if they changed since the last look: a layer's object is
 * one that defines its version function (in the global scope, or in an object whose name
 * holds the library's, loaded locally by dlopen); found, it is given to the core. */
static void look(void) {
    unsigned long long c[2] = {0, 0};
    dl_iterate_phdr(counters, c);
    pthread_mutex_lock(&stack_lock);
    if (!looked || c[0] != seen_adds || c[1] != seen_subs) {
        looked = 1;
        seen_adds = c[0];
        seen_subs = c[1];
        static Candidates cands;     /* under stack_lock */
        cands.n = 0;
        dl_iterate_phdr(collect, &cands);
        int any = 0;
        for (int i = 0; i < N_LAYERS; i++) {
            Layer *l = &layers[i];
            void *f = symbol_in(NULL, l->version_fn);
            for (int j = 0; !f && j < cands.n; j++) f = symbol_in(cands.names[j], l->version_fn);
            Dl_info info;
            void *base = NULL;
            if (f && dladdr(f, &info) && info.dli_fname && strlen(info.dli_fname) < sizeof l->file) {
                base = info.dli_fbase;
                if (base != l->base) {
                    strcpy(l->file, info.dli_fname);
                    l->versioned = 0;
                    l->version = f;
                    l->ready = i == HDF5 ? symbol_in(l->file, "H5_libinit_g") : NULL;
                    mpi_info_hintcheck_layer(l->layer, NULL, l->file);
                }
            }
            l->base = base;
            any |= base != NULL;
        }
        __atomic_store_n(&any_layer, any, __ATOMIC_RELAXED);
    }
    for (int i = 0; i < N_LAYERS; i++) give_version(&layers[i], 0);
    pthread_mutex_unlock(&stack_lock);
}

/* The layer whose code holds the return address ra (the caller of an intercepted call), or
 * NULL: the program, or a library not in the stack. */
static const char *caller_of(const void *ra) {
    Dl_info info;
    const char *layer = NULL;
    if (!__atomic_load_n(&any_layer, __ATOMIC_RELAXED) || !ra || !dladdr(ra, &info)) return NULL;
    pthread_mutex_lock(&stack_lock);
    for (int i = 0; i < N_LAYERS; i++)
        if (layers[i].base && layers[i].base == info.dli_fbase) layer = layers[i].layer;
    pthread_mutex_unlock(&stack_lock);
    return layer;
}

/* The library's own definition of `name` (an intercepted entry point): the dynamic linker's
 * next one, or (a library loaded locally, as Python's extension modules load theirs) the one in
 * the object found; never this library's own (`self`). NULL if the library is not loaded. */
static void *real_function(const char *name, int layer, void *self) {
    void *f = dlsym(RTLD_NEXT, name);
    if (!f || f == self) {
        char file[4096] = "";
        look();
        pthread_mutex_lock(&stack_lock);
        if (layers[layer].base) memcpy(file, layers[layer].file, sizeof file);
        pthread_mutex_unlock(&stack_lock);
        f = file[0] ? symbol_in(file, name) : NULL;
    }
    return f == self ? NULL : f;
}

/* ---- reading info objects ---- */

/* A growable byte buffer; on allocation failure it is marked failed and stays empty. */
typedef struct { char *data; size_t len, cap; int failed; } Buf;

/* Room for n more bytes; 0 (and marked failed) if there is none. */
static int buf_reserve(Buf *b, size_t n) {
    if (b->failed) return 0;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->len + n) cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) { b->failed = 1; return 0; }
        b->data = d; b->cap = cap;
    }
    return 1;
}

static void buf_add(Buf *b, const char *s, size_t n) {
    if (!buf_reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

/* Reads the value of key into value (room bytes), NUL-terminated, in one call (before MPI 4, a
 * second for a value that may have been cut); returns the length of the whole value, larger
 * than room - 1 if it was cut, or -1 if the key is not there (or the call failed). */
static int get_value(MPI_Info info, const char *key, char *value, int room) {
    int flag = 0, len = room;
#if MPI_VERSION >= 4
    if (PMPI_Info_get_string(info, key, &len, value, &flag) != MPI_SUCCESS || !flag) return -1;
    value[room - 1] = '\0';
    return len - 1;   /* the length returned counts the terminating NUL */
#else
    if (PMPI_Info_get(info, key, room - 1, value, &flag) != MPI_SUCCESS || !flag) return -1;
    value[room - 1] = '\0';
    len = (int)strlen(value);
    /* A value that fills the buffer may have been cut (Open MPI 4.1.4 cuts one at room - 2
     * characters when room - 1 is MPI_MAX_INFO_VAL): its length tells. */
    if (len >= room - 2 && (PMPI_Info_get_valuelen(info, key, &len, &flag) != MPI_SUCCESS || !flag)) return -1;
    return len;
#endif
}

/* Reads every pair of an info object (MPI_INFO_NULL: none), in the object's order, into out as
 * "key\0value\0"... (keys and values hold no NUL); returns the number of pairs, -1 if not all
 * could be read (out of memory: out keeps those that were). A value is read in one call into
 * MPI_MAX_INFO_VAL + 1 bytes (MPICH's MPI_Info_set takes values of MPI_MAX_INFO_VAL
 * characters); a longer one, which only the MPI itself can have set, is read again whole. A key
 * MPI_Info_get_nthkey does not give, or whose value cannot be read, is noted on the call c
 * (reported: of the object the MPI reports, else the caller's), never left out in silence:
 * MPICH 4.0.2 gives a key of 255 characters cut to 254, under which there is no value. */
static int read_info(MPI_Info info, Buf *out, HcCall *c, int reported) {
    int nkeys = 0, n = 0;
    if (info == MPI_INFO_NULL) return 0;
    if (PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS || nkeys <= 0) return 0;
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        memset(key, 0, sizeof key);
        if (PMPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS) {
            mpi_info_hintcheck_unread(c, reported, i, NULL, MPI_MAX_INFO_KEY);
            continue;
        }
        size_t mark = out->len;
        buf_add(out, key, strlen(key) + 1);
        if (!buf_reserve(out, MPI_MAX_INFO_VAL + 1)) return -1;
        int vlen = get_value(info, key, out->data + out->len, MPI_MAX_INFO_VAL + 1);
        if (vlen > MPI_MAX_INFO_VAL) {
            if (!buf_reserve(out, (size_t)vlen + 1)) return -1;
            vlen = get_value(info, key, out->data + out->len, vlen + 1);
        }
        if (vlen < 0) {
            out->len = mark;
            mpi_info_hintcheck_unread(c, reported, i, key, MPI_MAX_INFO_KEY);
            continue;
        }
        out->len += strlen(out->data + out->len) + 1;
        n++;
    }
    return out->failed ? -1 : n;
}

/* The pairs of a read_info buffer sorted by key, as "key\0value\0"..., and their FNV-1a
 * digest (the count too, so that an empty value is told from a missing pair). */
static const char *sort_base;
static int offset_cmp(const void *a, const void *b) {
    const char *x = sort_base + *(const size_t *)a, *y = sort_base + *(const size_t *)b;
    int c = strcmp(x, y);
    return c ? c : strcmp(x + strlen(x) + 1, y + strlen(y) + 1);
}

static uint64_t serialize(const Buf *pairs, int n, Buf *out) {
    uint64_t h = 1469598103934665603ULL;
    size_t *at = n > 0 ? malloc((size_t)n * sizeof(size_t)) : NULL;
    if (n > 0 && !at) { out->failed = 1; return 0; }
    size_t pos = 0;
    for (int i = 0; i < n; i++) {
        at[i] = pos;
        pos += strlen(pairs->data + pos) + 1;
        pos += strlen(pairs->data + pos) + 1;
    }
    /* qsort has no context argument; the base is set under a lock of its own. */
    static pthread_mutex_t sort_lock = PTHREAD_MUTEX_INITIALIZER;
    if (n > 1) {
        pthread_mutex_lock(&sort_lock);
        sort_base = pairs->data;
        qsort(at, (size_t)n, sizeof(size_t), offset_cmp);
        pthread_mutex_unlock(&sort_lock);
    }
    if (!buf_reserve(out, pos)) { free(at); return 0; }
    for (int i = 0; i < n; i++) {
        const char *k = pairs->data + at[i];
        size_t kl = strlen(k) + 1, vl = strlen(k + kl) + 1;
        buf_add(out, k, kl + vl);
    }
    free(at);
    for (size_t i = 0; i < out->len; i++) { h ^= (unsigned char)out->data[i]; h *= 1099511628211ULL; }
    h ^= (uint64_t)n; h *= 1099511628211ULL;
    return h;
}

/* ---- one checked call ---- */

typedef struct {
    HcCall *c;
    Buf requested;      /* the caller's pairs, read_info's form */
    int n;              /* how many */
    int size;           /* the size of the call's communicator or group */
} Check;

/* The library call (ncmpi_create, ncmpi_open) in progress on this thread, whose record the MPI
 * calls it makes are told of. */
static __thread HcCall *library_call;

/* Everything before the call: the record is begun, the caller's hints are read (before: an MPI
 * may change the caller's info object; MPICH 4.0.2's MPI_Win_set_info cuts an
 * accumulate_ordering value at its first comma in the caller's object). Returns whether the
 * call is checked. comm: the call's communicator (its size is the record's), or MPI_COMM_NULL
 * and the size. ra: the intercepted function's return address, in the code that called it. */
static int pre(Check *k, const char *call, const char *filename, MPI_Comm comm, int size, MPI_Info info, const void *ra) {
    memset(k, 0, sizeof *k);
    if (!setup()) return 0;
    look();
    if (comm != MPI_COMM_NULL) PMPI_Comm_size(comm, &size);
    k->size = size;
    k->c = mpi_info_hintcheck_call_begin(call, filename, size);
    if (!k->c) return 0;
    const char *caller = caller_of(ra);
    if (caller) mpi_info_hintcheck_caller(k->c, caller);
    if (library_call && strncmp(call, "MPI_", 4) == 0) mpi_info_hintcheck_through(k->c, library_call);
    k->n = read_info(info, &k->requested, k->c, 0);
    if (k->n < 0) {
        mpi_info_hintcheck_note(k->c, "the caller's hints could not all be read (out of memory)");
        k->n = 0;
        k->requested.len = 0;
    }
    mpi_info_hintcheck_requested(k->c, k->requested.data, k->requested.len);
    return 1;
}

/* The call returned an error: there is no object whose hints the MPI could report. */
static void failed(Check *k, int rc) {
    char msg[96];
    snprintf(msg, sizeof msg, "the call failed (error code %d): nothing is reported", rc);
    mpi_info_hintcheck_note(k->c, msg);
}

/* Whether every process of comm passed the same pairs; if not, names the differences. A process
 * alone in comm agrees with itself: no collective. */
static void agree(Check *k, MPI_Comm comm) {
    int rank = 0, size = 1, inter = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) {
        mpi_info_hintcheck_note(k->c, "agreement not checked: not an intracommunicator");
        return;
    }
    if (k->size == 1) return;
    Buf ser = {0};
    uint64_t d = serialize(&k->requested, k->n, &ser), in[2], out[2] = {0, 0};
    in[0] = d; in[1] = ~d;
    if (ser.failed) {
        /* Every process must still take part: zeros change neither maximum, so this process
         * is left out of the comparison. */
        in[0] = 0; in[1] = 0;
        mpi_info_hintcheck_note(k->c, "the hints could not be serialized (out of memory): this process's were not compared");
    }
    if (PMPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_MAX, comm) != MPI_SUCCESS) {
        mpi_info_hintcheck_note(k->c, "the agreement collective failed");
        free(ser.data);
        return;
    }
    if (out[0] == ~out[1]) { free(ser.data); return; }       /* max == min: all equal */
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int mine[2] = { ser.failed ? 0 : (int)ser.len, world_rank };
    int *all = malloc(2 * sizeof(int) * (size_t)size);
    int *lens = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    int *wranks = malloc(sizeof(int) * (size_t)size);
    int failed = !all || !lens || !displs || !wranks;
    /* Every process must make the same collectives: the allocation failure is shared first. */
    int any_failed = failed;
    PMPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, comm);
    if (!any_failed) {
        PMPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm);
        size_t total = 0;
        for (int i = 0; i < size; i++) {
            lens[i] = all[2 * i]; wranks[i] = all[2 * i + 1];
            displs[i] = (int)total; total += (size_t)lens[i];
        }
        char *gathered = malloc(total ? total : 1);
        int gfailed = !gathered, gany = gfailed;
        PMPI_Allreduce(&gfailed, &gany, 1, MPI_INT, MPI_MAX, comm);
        if (!gany) {
            PMPI_Allgatherv(ser.data ? ser.data : "", mine[0], MPI_CHAR, gathered, lens, displs, MPI_CHAR, comm);
            mpi_info_hintcheck_mismatch(k->c, size, wranks, lens, gathered, rank == 0);
        } else {
            mpi_info_hintcheck_note(k->c, "the processes disagree, but the hints could not be gathered (out of memory)");
        }
        free(gathered);
    } else {
        mpi_info_hintcheck_note(k->c, "the processes disagree, but the hints could not be gathered (out of memory)");
    }
    free(all); free(lens); free(displs); free(wranks); free(ser.data);
}

/* What the MPI reports after the call (info_used is freed here). */
static void reported(Check *k, MPI_Info info_used) {
    Buf pairs = {0};
    if (read_info(info_used, &pairs, k->c, 1) < 0) {
        mpi_info_hintcheck_note(k->c, "the hints the MPI reports could not all be read (out of memory)");
        pairs.len = 0;
    }
    mpi_info_hintcheck_reported(k->c, pairs.data, pairs.len);
    free(pairs.data);
    if (info_used != MPI_INFO_NULL) PMPI_Info_free(&info_used);
}

static void end(Check *k) {
    mpi_info_hintcheck_call_end(k->c);
    k->c = NULL;
    free(k->requested.data);
    k->requested.data = NULL;
}

/* ---- a communicator per group, for the calls on files and windows that have none ---- */
/* MPI_File_set_info, MPI_File_set_view and MPI_Win_set_info are collective over the group of
 * the file or window, but give no communicator. One is made per group (PMPI_Comm_create_group
 * on MPI_COMM_WORLD, collective over the group only) the first time, kept, and freed at
 * MPI_Finalize. Not under MPI_THREAD_MULTIPLE, where two threads could use one at once. */
#define HC_GROUP_TAG 0x4843   /* "HC" */
typedef struct { MPI_Group group; MPI_Comm comm; } GroupComm;
static GroupComm *group_comms;
static int n_group_comms;

static MPI_Comm comm_for_group(MPI_Group group) {
    for (int i = 0; i < n_group_comms; i++) {
        int result = MPI_UNEQUAL;
        PMPI_Group_compare(group, group_comms[i].group, &result);
        if (result == MPI_IDENT) return group_comms[i].comm;
    }
    /* Only a group inside MPI_COMM_WORLD (no spawned processes). Every process of the group
     * must decide alike, since the creation below is collective over it: the ranks are
     * translated one at a time, with nothing allocated that could fail on one process alone. */
    int n = 0, inside = 1;
    MPI_Group world;
    PMPI_Group_size(group, &n);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int i = 0; i < n && inside; i++) {
        int wrank = MPI_UNDEFINED;
        PMPI_Group_translate_ranks(group, 1, &i, world, &wrank);
        if (wrank == MPI_UNDEFINED) inside = 0;
    }
    PMPI_Group_free(&world);
    if (!inside) return MPI_COMM_NULL;
    /* The one allocation: if it fails on one process only, that process skips the creation the
     * others make (docs/hintcheck.md, Guarantees, says so). */
    GroupComm *grown = realloc(group_comms, sizeof(GroupComm) * (size_t)(n_group_comms + 1));
    if (!grown) return MPI_COMM_NULL;
    group_comms = grown;
    MPI_Comm comm = MPI_COMM_NULL;
    if (PMPI_Comm_create_group(MPI_COMM_WORLD, group, HC_GROUP_TAG, &comm) != MPI_SUCCESS) return MPI_COMM_NULL;
    MPI_Group copy;
    PMPI_Comm_group(comm, &copy);
    group_comms[n_group_comms].group = copy;
    group_comms[n_group_comms].comm = comm;
    n_group_comms++;
    return comm;
}

static void agree_on_group(Check *k, MPI_Group group) {
    if (thread_multiple) {
        mpi_info_hintcheck_note(k->c, "agreement not checked: the calls on a file or window have no communicator, and under MPI_THREAD_MULTIPLE the tool makes none");
        return;
    }
    if (k->size == 1) return;   /* alone: no communicator needed */
    MPI_Comm comm = comm_for_group(group);
    if (comm == MPI_COMM_NULL) {
        mpi_info_hintcheck_note(k->c, "agreement not checked: no communicator for the group of this file or window");
        return;
    }
    agree(k, comm);
}

/* ---- the intercepted calls ---- */

/* Each intercepted call: pre() and, if the call is collective, the agreement check before the
 * call (so that a disagreement that makes the call itself hang or crash is printed first); the
 * call, with the caller's arguments; then what the MPI reports, and the record is ended. */

static int pre_collective(Check *k, const char *call, const char *filename, MPI_Comm comm, MPI_Info info, const void *ra) {
    int checked = pre(k, call, filename, comm, 1, info, ra);
    if (checked) agree(k, comm);
    return checked;
}

/* The calls collective over the group of a file or window, which give no communicator: pre()
 * with the group's size and the agreement on the group. The group is freed here. filename: the
 * name the file was opened with, or NULL. */
static int pre_group(Check *k, const char *call, const char *filename, MPI_Group group, MPI_Info info, const void *ra) {
    int size = 1;
    PMPI_Group_size(group, &size);
    int checked = pre(k, call, filename, MPI_COMM_NULL, size, info, ra);
    if (checked) agree_on_group(k, group);
    PMPI_Group_free(&group);
    return checked;
}

/* The body of a call collective over comm: pre_collective(), the call pmpi_call (its result rc,
 * returned), then after(&k, rc, made) for the object made or changed. */
#define COLLECTIVE(name, filename, comm, info, pmpi_call, after, made) \
    do { \
        Check k; \
        int checked = pre_collective(&k, name, filename, comm, info, __builtin_return_address(0)); \
        int rc = pmpi_call; \
        if (checked) after(&k, rc, made); \
        return rc; \
    } while (0)

/* ---- the names files were opened with, by handle ---- */
/* MPI_File_set_view and MPI_File_set_info name the file they are called on: the name it was
 * opened with (a successful MPI_File_open records it; MPI_File_close forgets it). */
typedef struct { MPI_File fh; char *name; } OpenFile;
static OpenFile *open_files;
static int n_open_files, room_open_files;
static pthread_mutex_t files_lock = PTHREAD_MUTEX_INITIALIZER;

static void remember_file(MPI_File fh, const char *name) {
    char *copy = name ? strdup(name) : NULL;
    if (!copy) return;
    pthread_mutex_lock(&files_lock);
    if (n_open_files == room_open_files) {
        int room = room_open_files ? 2 * room_open_files : 16;
        OpenFile *grown = realloc(open_files, sizeof(OpenFile) * (size_t)room);
        if (grown) { open_files = grown; room_open_files = room; }
    }
    if (n_open_files < room_open_files) {
        open_files[n_open_files].fh = fh;
        open_files[n_open_files++].name = copy;
        copy = NULL;
    }
    pthread_mutex_unlock(&files_lock);
    free(copy);
}

static void forget_file(MPI_File fh) {
    pthread_mutex_lock(&files_lock);
    for (int i = n_open_files - 1; i >= 0; i--)
        if (open_files[i].fh == fh) {
            free(open_files[i].name);
            open_files[i] = open_files[--n_open_files];
            break;
        }
    pthread_mutex_unlock(&files_lock);
}

/* A copy of the name fh was opened with (to be freed), or NULL. */
static char *file_name(MPI_File fh) {
    char *name = NULL;
    pthread_mutex_lock(&files_lock);
    for (int i = n_open_files - 1; i >= 0 && !name; i--)
        if (open_files[i].fh == fh) name = strdup(open_files[i].name);
    pthread_mutex_unlock(&files_lock);
    return name;
}

/* The after() of each kind of object: what the MPI reports of it once the call succeeded (only
 * then is *made the MPI's output), and the record is ended. */
static void after_file(Check *k, int rc, MPI_File *made) {
    MPI_Info used = MPI_INFO_NULL;
    if (rc != MPI_SUCCESS) failed(k, rc);
    else {
        PMPI_File_get_info(*made, &used);
        reported(k, used);
    }
    end(k);
}

static void after_win(Check *k, int rc, MPI_Win *made) {
    MPI_Info used = MPI_INFO_NULL;
    if (rc != MPI_SUCCESS) failed(k, rc);
    else {
        PMPI_Win_get_info(*made, &used);
        reported(k, used);
    }
    end(k);
}

/* *made MPI_COMM_NULL: no communicator made on this process (MPI_Comm_split_type). */
static void after_comm(Check *k, int rc, MPI_Comm *made) {
    MPI_Info used = MPI_INFO_NULL;
    if (rc != MPI_SUCCESS) failed(k, rc);
    else if (*made == MPI_COMM_NULL) mpi_info_hintcheck_note(k->c, "no communicator made on this process: nothing reported");
    else {
        PMPI_Comm_get_info(*made, &used);
        reported(k, used);
    }
    end(k);
}

int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh) {
    Check k;
    int checked = pre_collective(&k, "MPI_File_open", filename, comm, info, __builtin_return_address(0));
    int rc = PMPI_File_open(comm, filename, amode, info, fh);
    if (rc == MPI_SUCCESS && setup()) remember_file(*fh, filename);
    if (checked) after_file(&k, rc, fh);
    return rc;
}

int MPI_File_close(MPI_File *fh) {
    if (fh) forget_file(*fh);
    return PMPI_File_close(fh);
}

int MPI_File_set_info(MPI_File fh, MPI_Info info) {
    Check k;
    MPI_Group group;
    char *name = setup() ? file_name(fh) : NULL;
    int checked = setup() && PMPI_File_get_group(fh, &group) == MPI_SUCCESS && pre_group(&k, "MPI_File_set_info", name, group, info, __builtin_return_address(0));
    free(name);
    int rc = PMPI_File_set_info(fh, info);
    if (checked) after_file(&k, rc, &fh);
    return rc;
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, MPI_Info info) {
    Check k;
    MPI_Group group;
    char *name = setup() ? file_name(fh) : NULL;
    int checked = setup() && PMPI_File_get_group(fh, &group) == MPI_SUCCESS && pre_group(&k, "MPI_File_set_view", name, group, info, __builtin_return_address(0));
    free(name);
    int rc = PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
    if (checked) after_file(&k, rc, &fh);
    return rc;
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win) {
    COLLECTIVE("MPI_Win_create", NULL, comm, info, PMPI_Win_create(base, size, disp_unit, info, comm, win), after_win, win);
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win) {
    COLLECTIVE("MPI_Win_allocate", NULL, comm, info, PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win), after_win, win);
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win) {
    COLLECTIVE("MPI_Win_allocate_shared", NULL, comm, info, PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win), after_win, win);
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win) {
    COLLECTIVE("MPI_Win_create_dynamic", NULL, comm, info, PMPI_Win_create_dynamic(info, comm, win), after_win, win);
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info) {
    Check k;
    MPI_Group group;
    int checked = setup() && PMPI_Win_get_group(win, &group) == MPI_SUCCESS && pre_group(&k, "MPI_Win_set_info", NULL, group, info, __builtin_return_address(0));
    int rc = PMPI_Win_set_info(win, info);
    if (checked) after_win(&k, rc, &win);
    return rc;
}

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
    COLLECTIVE("MPI_Comm_set_info", NULL, comm, info, PMPI_Comm_set_info(comm, info), after_comm, &comm);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
    COLLECTIVE("MPI_Comm_dup_with_info", NULL, comm, info, PMPI_Comm_dup_with_info(comm, info, newcomm), after_comm, newcomm);
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
    COLLECTIVE("MPI_Comm_split_type", NULL, comm, info, PMPI_Comm_split_type(comm, split_type, key, info, newcomm), after_comm, newcomm);
}

/* The spawn calls read their info at the root only: checked there, with no agreement and
 * nothing reported back. */
static void spawned(Check *k, int rc) {
    if (rc != MPI_SUCCESS) failed(k, rc);
    end(k);
}

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]) {
    Check k;
    int rank = -1, checked = 0;
    if (setup() && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank == root)
        checked = pre(&k, "MPI_Comm_spawn", NULL, comm, 1, info, __builtin_return_address(0));
    int rc = PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm, array_of_errcodes);
    if (checked) spawned(&k, rc);
    return rc;
}

int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[], const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]) {
    int rank = -1, n = 0;
    Check *ks = NULL;
    if (setup() && count > 0 && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank == root)
        ks = calloc((size_t)count, sizeof(Check));
    const void *ra = __builtin_return_address(0);
    while (ks && n < count && pre(&ks[n], "MPI_Comm_spawn_multiple", NULL, comm, 1, array_of_info[n], ra)) n++;
    int rc = PMPI_Comm_spawn_multiple(count, array_of_commands, array_of_argv, array_of_maxprocs, array_of_info, root, comm, intercomm, array_of_errcodes);
    for (int i = 0; i < n; i++) spawned(&ks[i], rc);
    free(ks);
    return rc;
}

#if MPI_VERSION >= 4
/* Local: no agreement. Checked only once the world model is initialized (the report names
 * ranks of MPI_COMM_WORLD). */
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session) {
    Check k;
    int checked = pre(&k, "MPI_Session_init", NULL, MPI_COMM_NULL, 1, info, __builtin_return_address(0));
    int rc = PMPI_Session_init(info, errhandler, session);
    if (checked) {
        MPI_Info used = MPI_INFO_NULL;
        if (rc != MPI_SUCCESS) failed(&k, rc);
        else if (PMPI_Session_get_info(*session, &used) == MPI_SUCCESS) reported(&k, used);
        end(&k);
    }
    return rc;
}
#endif

/* ---- the libraries' entry points that take the program's info ---- */

/* The libraries' own types (their ABI): PnetCDF's functions return an int, NC_NOERR (0) on
 * success; HDF5 1.10's hid_t is a 64-bit integer and herr_t an int, negative on failure. */
typedef int64_t hc_hid_t;
typedef int (*nc_open_fn)(MPI_Comm, const char *, int, MPI_Info, int *);
typedef int (*nc_inq_file_info_fn)(int, MPI_Info *);
typedef int (*h5_fapl_mpio_fn)(hc_hid_t, MPI_Comm, MPI_Info);
#define HC_NC_ENOTBUILT (-128)  /* PnetCDF's "not built": what a call returns with no PnetCDF */

int ncmpi_create(MPI_Comm comm, const char *path, int cmode, MPI_Info info, int *ncidp);
int ncmpi_open(MPI_Comm comm, const char *path, int omode, MPI_Info info, int *ncidp);
int H5Pset_fapl_mpio(hc_hid_t fapl_id, MPI_Comm comm, MPI_Info info);

/* After ncmpi_create or ncmpi_open: what PnetCDF reports of the file's hints
 * (ncmpi_inq_file_info: the MPI's, with PnetCDF's own as it reads them). */
static void after_netcdf(Check *k, int rc, const int *ncidp) {
    if (rc != 0) failed(k, rc);
    else {
        nc_inq_file_info_fn inq = (nc_inq_file_info_fn)real_function("ncmpi_inq_file_info", PNETCDF, NULL);
        MPI_Info used = MPI_INFO_NULL;
        if (inq && inq(*ncidp, &used) == 0) reported(k, used);
        else mpi_info_hintcheck_note(k->c, "ncmpi_inq_file_info failed: nothing is reported");
    }
    end(k);
}

/* ncmpi_create and ncmpi_open: the program's hints, before PnetCDF merges PNETCDF_HINTS into
 * them; the MPI calls PnetCDF makes meanwhile are told of this one. Not collective here: the
 * agreement is checked on the MPI_File_open PnetCDF makes. */
static int netcdf_open(const char *call, void *self, MPI_Comm comm, const char *path, int mode, MPI_Info info, int *ncidp, const void *ra) {
    nc_open_fn real = (nc_open_fn)real_function(call, PNETCDF, self);
    if (!real) return HC_NC_ENOTBUILT;
    Check k;
    int checked = pre(&k, call, path, comm, 1, info, ra);
    HcCall *outer = library_call;
    if (checked) library_call = k.c;
    int rc = real(comm, path, mode, info, ncidp);
    library_call = outer;
    if (checked) after_netcdf(&k, rc, ncidp);
    return rc;
}

int ncmpi_create(MPI_Comm comm, const char *path, int cmode, MPI_Info info, int *ncidp) {
    return netcdf_open("ncmpi_create", (void *)ncmpi_create, comm, path, cmode, info, ncidp, __builtin_return_address(0));
}

int ncmpi_open(MPI_Comm comm, const char *path, int omode, MPI_Info info, int *ncidp) {
    return netcdf_open("ncmpi_open", (void *)ncmpi_open, comm, path, omode, info, ncidp, __builtin_return_address(0));
}

/* H5Pset_fapl_mpio: the program's hints, which HDF5 keeps in the property list and passes to
 * MPI_File_open and MPI_File_set_view (it reports nothing of them). Local: no agreement. */
int H5Pset_fapl_mpio(hc_hid_t fapl_id, MPI_Comm comm, MPI_Info info) {
    h5_fapl_mpio_fn real = (h5_fapl_mpio_fn)real_function("H5Pset_fapl_mpio", HDF5, (void *)H5Pset_fapl_mpio);
    if (!real) return -1;
    Check k;
    int checked = pre(&k, "H5Pset_fapl_mpio", NULL, comm, 1, info, __builtin_return_address(0));
    int rc = real(fapl_id, comm, info);
    if (checked) {
        /* The program has initialised HDF5 by now: its version can be asked. */
        pthread_mutex_lock(&stack_lock);
        give_version(&layers[HDF5], 1);
        pthread_mutex_unlock(&stack_lock);
        if (rc < 0) failed(&k, rc);
        end(&k);
    }
    return rc;
}

int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) setup();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) setup();
    return rc;
}

/* The summary: the totals of every process reduced to rank 0, which prints them if something
 * was found (or MPI_INFO_HINTCHECK_VERBOSE is set); the last write of each JSON file; the
 * communicators made for groups are freed. Then PMPI_Finalize, whose result is returned. */
int MPI_Finalize(void) {
    if (setup()) {
        /* mine: checked calls, diagnostics, distinct disagreeing keys and calls with a
         * disagreement of this process. totals: rank 0's own calls and diagnostics, the
         * diagnostics of every process, the most disagreeing keys and calls with a disagreement
         * any process saw (every process of a call sees the same ones). */
        long long mine[4] = {0, 0, 0, 0}, sums[4] = {0, 0, 0, 0}, maxima[4] = {0, 0, 0, 0}, totals[5];
        mpi_info_hintcheck_counts(mine);
        pthread_mutex_lock(&state_lock);
        __atomic_store_n(&state, FINALIZED, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&state_lock);
        if (PMPI_Reduce(mine, sums, 4, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD) == MPI_SUCCESS &&
            PMPI_Reduce(mine, maxima, 4, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD) == MPI_SUCCESS) {
            totals[0] = mine[0]; totals[1] = mine[1]; totals[2] = sums[1];
            totals[3] = maxima[2]; totals[4] = maxima[3];
            mpi_info_hintcheck_finalize(world_rank == 0 ? totals : NULL);
        }
        else
            mpi_info_hintcheck_finalize(NULL);
        for (int i = 0; i < n_group_comms; i++) {
            PMPI_Group_free(&group_comms[i].group);
            PMPI_Comm_free(&group_comms[i].comm);
        }
        free(group_comms);
        group_comms = NULL; n_group_comms = 0;
    }
    return PMPI_Finalize();
}
